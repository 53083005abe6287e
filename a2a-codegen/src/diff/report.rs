//! Rendering a [`Report`]: text, Markdown (askama, `templates/diff.md`) and JSON.

use super::{ChangeKind, Class, ItemKind, Report};
use askama::Template;

#[derive(Template)]
#[template(path = "diff.md", escape = "none")]
struct MarkdownReport<'a> {
    report: &'a Report,
    summary: String,
    sections: Vec<Section>,
}

struct Section {
    title: &'static str,
    rows: Vec<Row>,
}

/// One table row, escaped for Markdown.
struct Row {
    kind: ItemKind,
    path: String,
    change: ChangeKind,
    detail: String,
}

impl Report {
    /// How many changes have this class.
    pub fn count(&self, class: Class) -> usize {
        self.changes.iter().filter(|c| c.class == class).count()
    }

    /// Whether any change is breaking (the CLI then exits 1).
    pub fn is_breaking(&self) -> bool {
        self.count(Class::Breaking) > 0
    }

    /// `N changes (B breaking, H behaviour, C compatible)`, or `no changes`.
    pub fn summary(&self) -> String {
        if self.changes.is_empty() {
            return "no changes".to_string();
        }
        let n = self.changes.len();
        format!(
            "{n} change{} ({} breaking, {} behaviour, {} compatible)",
            if n == 1 { "" } else { "s" },
            self.count(Class::Breaking),
            self.count(Class::Behaviour),
            self.count(Class::Compatible),
        )
    }

    /// The short form for terminals: one line per change (class, change, kind, path, detail),
    /// then the summary.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let width = self.changes.iter().map(|c| c.path.len()).max().unwrap_or(0);
        for c in &self.changes {
            out.push_str(&format!(
                "{:<10} {:<7} {:<6} {:<width$}  {}\n",
                c.class, c.change, c.kind, c.path, c.detail
            ));
        }
        out.push_str(&format!(
            "{} -> {}: {}\n",
            self.old,
            self.new,
            self.summary()
        ));
        out
    }

    /// The Markdown report (from the askama template `templates/diff.md`): a summary, then one
    /// table per class, most severe first.
    pub fn to_markdown(&self) -> Result<String, String> {
        let sections = [
            (Class::Breaking, "Breaking"),
            (Class::Behaviour, "Behaviour changes"),
            (Class::Compatible, "Compatible"),
        ]
        .into_iter()
        .map(|(class, title)| Section {
            title,
            rows: self
                .changes
                .iter()
                .filter(|c| c.class == class)
                .map(|c| Row {
                    kind: c.kind,
                    path: cell(&c.path),
                    change: c.change,
                    detail: cell(&c.detail),
                })
                .collect(),
        })
        .filter(|s| !s.rows.is_empty())
        .collect();
        let mut text = MarkdownReport {
            report: self,
            summary: self.summary(),
            sections,
        }
        .render()
        .map_err(|e| format!("rendering the diff report failed (a generator bug): {e}"))?;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        Ok(text)
    }

    /// The JSON array of changes (the shape is documented in the [module docs](crate::diff)).
    pub fn to_json(&self) -> String {
        let mut text =
            serde_json::to_string_pretty(&self.changes).expect("changes serialize to JSON");
        text.push('\n');
        text
    }
}

/// Escapes text for a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}
