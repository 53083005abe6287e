//! Diagnostics: what went wrong, in which input file, at which JSON pointer, and what to do.
//!
//! Stages collect every problem they find instead of stopping at the first (the shape of serde's
//! `internals::ctxt`), so one run reports everything that needs fixing.

use std::fmt;

/// One problem in the generator's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The input file, as labelled in the generator's configuration (e.g. `spec/v1/a2a.schema.json`).
    pub file: String,
    /// Where in the file: a JSON pointer (`/$defs/Task/properties/id`) for JSON and TOML inputs,
    /// or `line L, column C` for a syntax error.
    pub location: String,
    /// What is wrong.
    pub message: String,
    /// What to do about it, when there is something to say.
    pub help: Option<String>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "error: {}\n  --> {} at {}",
            self.message,
            self.file,
            display_location(&self.location)
        )?;
        if let Some(help) = &self.help {
            write!(f, "\n  = help: {help}")?;
        }
        Ok(())
    }
}

fn display_location(location: &str) -> &str {
    if location.is_empty() {
        "(document root)"
    } else {
        location
    }
}

/// Every problem found in one run, in the order found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Records a problem.
    pub fn push(
        &mut self,
        file: &str,
        location: impl Into<String>,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.0.push(Diagnostic {
            file: file.to_string(),
            location: location.into(),
            message: message.into(),
            help: None,
        });
        self.0.last_mut().expect("just pushed")
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Ok when empty, else the diagnostics as an error.
    pub fn into_result(self) -> Result<(), Diagnostics> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(self)
        }
    }
}

impl Diagnostic {
    /// Adds what to do about it.
    pub fn help(&mut self, help: impl Into<String>) -> &mut Self {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            writeln!(f, "{d}")?;
        }
        let n = self.0.len();
        write!(
            f,
            "{n} error{} in the generator input",
            if n == 1 { "" } else { "s" }
        )
    }
}

impl std::error::Error for Diagnostics {}

/// Something the generator decided on the input's behalf and tells the user once; not a problem
/// (generation goes on). [`Config::write`](crate::Config::write) and
/// [`Config::check`](crate::Config::check) print notes on stderr (as `cargo:warning` lines in a
/// build script); [`Config::generate_with_notes`](crate::Config::generate_with_notes) returns them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The input file, as labelled in the generator's configuration.
    pub file: String,
    /// Where in the file (a JSON pointer): the first place the note concerns.
    pub location: String,
    /// What the generator did, and why.
    pub message: String,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "note: {}\n  --> {} at {}",
            self.message,
            self.file,
            display_location(&self.location)
        )
    }
}

/// Appends one reference token to a JSON pointer, escaping `~` and `/` (RFC 6901).
pub fn pointer_push(pointer: &str, token: &str) -> String {
    let escaped = token.replace('~', "~0").replace('/', "~1");
    format!("{pointer}/{escaped}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_tokens_are_escaped() {
        assert_eq!(pointer_push("/$defs", "a/b~c"), "/$defs/a~1b~0c");
    }

    #[test]
    fn display_names_file_pointer_and_help() {
        let mut d = Diagnostics::default();
        d.push("spec/x.json", "/$defs/A", "bad thing")
            .help("do this");
        let text = d.to_string();
        assert!(
            text.contains("error: bad thing\n  --> spec/x.json at /$defs/A\n  = help: do this"),
            "{text}"
        );
        assert!(text.ends_with("1 error in the generator input"), "{text}");
    }
}
