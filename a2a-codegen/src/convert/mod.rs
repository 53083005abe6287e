//! Conversions between two versions' modules (A2A 0.3 and 1.0): the `convert` module of the older
//! one, generated from both models and a small table of what the models cannot match by name
//! (`convert.toml`, [`Table`]).
//!
//! For every pair of types the generator emits `a2a_runtime::convert::Convert` both ways, and
//! `TryFrom` over it (strict: a value the other version cannot carry is an error naming its
//! member). Pairs come from matching Rust names, then the table's `[types]`; within a pair,
//! fields, enum values and union variants match by Rust name, then the table. A member only one
//! side has is left out (strict: an error when it is set), one only the target has gets its
//! default. Then a service adapter: the older version's `A2aService` over a service of the newer
//! one, each method's params converted strictly (an error is the caller's invalid params, naming
//! the member) and its reply and events lossily (what the older version cannot carry is left out,
//! as a2a-sdk's compat layer leaves it out).
//!
//! What no model can say (a tagged union that became a struct with a oneof, a nested config that
//! became flat) is written by hand in `hand.rs`, named by the table's `[hand]`.

mod emit;
mod hand;

use crate::diff::Side;
use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `convert.toml`: what pairs up between the two versions beyond equal Rust names.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Table {
    /// The other (newer) version's spec directory, relative to the table.
    pub(crate) other: PathBuf,
    /// Older type = the newer types it converts to and from.
    #[serde(default)]
    pub(crate) types: BTreeMap<String, Vec<String>>,
    /// "OlderType.field" = newer field (Rust names).
    #[serde(default)]
    pub(crate) fields: BTreeMap<String, String>,
    /// "OlderEnum.Variant" = newer variant.
    #[serde(default)]
    pub(crate) values: BTreeMap<String, String>,
    /// "OlderUnion.Variant" = newer variant.
    #[serde(default)]
    pub(crate) variants: BTreeMap<String, String>,
    /// Older method (Rust name) = the newer method that serves it.
    #[serde(default)]
    pub(crate) methods: BTreeMap<String, String>,
    /// A type pair or "Type.field" = the hand-written conversion (`hand.rs`) that converts it.
    #[serde(default)]
    pub(crate) hand: BTreeMap<String, String>,
}

impl Table {
    /// Reads the table at `path` (named `label` in errors), with the SHA-256 of its bytes.
    pub(crate) fn read(path: &Path, label: &str) -> Result<(Table, String), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{label}: {e}"))?;
        Table::parse(&text, label)
    }

    /// Parses a table's text (named `label` in errors), with the SHA-256 of its bytes.
    pub(crate) fn parse(text: &str, label: &str) -> Result<(Table, String), String> {
        let table =
            toml::from_str(text).map_err(|e| format!("{label}: {}", e.to_string().trim()))?;
        Ok((table, crate::load::sha256_hex(text.as_bytes())))
    }

    /// The other spec directory, resolved against the table's own directory.
    pub(crate) fn other_spec(&self, table_path: &Path) -> PathBuf {
        table_path
            .parent()
            .unwrap_or(Path::new("."))
            .join(&self.other)
    }
}

/// Which way a conversion goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    /// Older to newer (0.3 to 1.0).
    Up,
    /// Newer to older.
    Down,
}

/// The two models, the table, and the pairs of types (older id, newer id).
pub(crate) struct Plan<'a> {
    pub(crate) old: Side<'a>,
    pub(crate) new: Side<'a>,
    pub(crate) table: &'a Table,
    pub(crate) label: &'a str,
    pub(crate) pairs: BTreeSet<(String, String)>,
}

impl<'a> Plan<'a> {
    /// Pairs the types: the table's, those it hands to `hand.rs`, then equal names whose kinds
    /// can be converted member by member.
    pub(crate) fn new(
        old: &'a Model,
        new: &'a Model,
        table: &'a Table,
        label: &'a str,
    ) -> Result<Self, String> {
        let mut problems = Vec::new();
        let mut pairs = BTreeSet::new();
        for (from, tos) in &table.types {
            if !old.types.contains_key(from) {
                problems.push(format!(
                    "{label}: [types] `{from}`: no such type in this version; remove the row"
                ));
            }
            for to in tos {
                if !new.types.contains_key(to) {
                    problems.push(format!(
                        "{label}: [types] `{from}` = `{to}`: no type `{to}` in the other \
                         version; name one of its types"
                    ));
                }
                pairs.insert((from.clone(), to.clone()));
            }
        }
        for (name, def) in &old.types {
            let Some(other) = new.types.get(name) else {
                continue;
            };
            if table.types.contains_key(name) {
                continue;
            }
            let hand = table.hand.contains_key(name);
            if hand || same_shape(&def.kind, &other.kind) {
                pairs.insert((name.clone(), name.clone()));
            }
        }
        for key in table.hand.keys() {
            let ty = key.split('.').next().unwrap_or(key);
            if !old.types.contains_key(ty) {
                problems.push(format!(
                    "{label}: [hand] `{key}`: no type `{ty}` in this version; remove the row"
                ));
            }
        }
        match problems.is_empty() {
            true => Ok(Plan {
                old: Side(old),
                new: Side(new),
                table,
                label,
                pairs,
            }),
            false => Err(problems.join("\n")),
        }
    }

    /// The side types of `dir` read from and write to.
    pub(crate) fn sides(&self, dir: Dir) -> (Side<'a>, Side<'a>) {
        match dir {
            Dir::Up => (self.old, self.new),
            Dir::Down => (self.new, self.old),
        }
    }

    /// Whether `src` converts to `dst` in `dir` (ids on their own sides).
    pub(crate) fn paired(&self, dir: Dir, src: &str, dst: &str) -> bool {
        let key = match dir {
            Dir::Up => (src.to_owned(), dst.to_owned()),
            Dir::Down => (dst.to_owned(), src.to_owned()),
        };
        self.pairs.contains(&key)
    }

    /// The newer field that an older one (`Type.field`) maps to, in the pair's newer type.
    pub(crate) fn new_field_name<'f>(&'f self, old_ty: &str, old_field: &'f str) -> &'f str {
        self.table
            .fields
            .get(&format!("{old_ty}.{old_field}"))
            .map_or(old_field, String::as_str)
    }

    /// The hand-written conversion of a type pair or a field, if the table names one.
    pub(crate) fn hand(&self, old_ty: &str, old_field: Option<&str>) -> Option<&'a str> {
        let key = match old_field {
            Some(f) => format!("{old_ty}.{f}"),
            None => old_ty.to_owned(),
        };
        self.table.hand.get(&key).map(String::as_str)
    }

    /// The newer variant of an older enum value or union variant.
    pub(crate) fn new_variant<'v>(
        &'v self,
        map: &'v BTreeMap<String, String>,
        old_ty: &str,
        old_variant: &'v str,
    ) -> &'v str {
        map.get(&format!("{old_ty}.{old_variant}"))
            .map_or(old_variant, String::as_str)
    }

    /// Method pairs (older, newer), by Rust name or the table.
    pub(crate) fn method_pairs(&self) -> Result<Vec<(&'a MethodDef, &'a MethodDef)>, String> {
        let mut out = Vec::new();
        for m in &self.old.0.methods {
            let want = self
                .table
                .methods
                .get(&m.rust_name)
                .map_or(m.rust_name.as_str(), String::as_str);
            match self.new.0.methods.iter().find(|n| n.rust_name == want) {
                Some(n) => out.push((m, n)),
                None => {
                    return Err(format!(
                        "{}: method `{}` has no counterpart `{want}` in the other version; add \
                         a [methods] row naming the method that serves it",
                        self.label, m.rust_name
                    ))
                }
            }
        }
        Ok(out)
    }
}

/// Whether two kinds convert member by member: structs without a oneof, enums, and unions
/// (tagged or oneof) of either sort.
fn same_shape(a: &TypeKind, b: &TypeKind) -> bool {
    use TypeKind::*;
    match (a, b) {
        (Struct(x), Struct(y)) => x.oneof.is_none() && y.oneof.is_none(),
        (Enum(_), Enum(_)) => true,
        (OneOf(_) | Tagged(_), OneOf(_) | Tagged(_)) => true,
        _ => false,
    }
}

pub(crate) use emit::{emit_convert, Paths};

/// `path` with `.` and `..` steps folded, lexically (labels, not files).
pub(crate) fn normalize(path: &Path) -> String {
    let mut out: Vec<&str> = Vec::new();
    for part in path.iter().filter_map(|p| p.to_str()) {
        match part {
            "." => {}
            ".." if out.last().is_some_and(|l| *l != "..") => {
                out.pop();
            }
            p => out.push(p),
        }
    }
    out.join("/")
}
