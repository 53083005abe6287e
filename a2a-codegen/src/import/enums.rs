//! Inlined enums: naming them (overlay, `title`, or the zero value's prefix) and checking that every
//! use of a name lists the same values.

use super::rewrite::Importer;
use crate::naming;
use serde_json::{Map, Value};

pub(super) struct FoundEnum {
    pub(super) values: Vec<String>,
    pub(super) pointer: String,
}

impl Importer<'_> {
    pub(super) fn inline_enum(
        &mut self,
        obj: &Map<String, Value>,
        zero: String,
        rest: Vec<String>,
        pointer: &str,
    ) -> Option<String> {
        let from_title = obj
            .get("title")
            .and_then(Value::as_str)
            .map(|t| t.chars().filter(|c| !c.is_whitespace()).collect::<String>());
        let from_prefix = zero.strip_suffix("_UNSPECIFIED").map(naming::pascal_case);
        let name = self
            .zero_names
            .get(&zero)
            .cloned()
            .or(from_title.filter(|n| naming::is_identifier(n)))
            .or(from_prefix.filter(|n| naming::is_identifier(n)));
        let Some(name) = name else {
            self.diags
                .push(
                    self.file,
                    pointer,
                    format!("cannot name the inlined enum whose zero value is `{zero}`"),
                )
                .help(format!(
                    "name it in the overlay: [enum.<Name>] zero = \"{zero}\""
                ));
            return None;
        };
        let mut values = vec![zero];
        values.extend(rest);
        self.record_enum(&name, values, pointer);
        Some(name)
    }

    /// Records an enum found at `pointer`; every use of a name must list the same values.
    pub(super) fn record_enum(&mut self, name: &str, values: Vec<String>, pointer: &str) {
        match self.enums.get(name) {
            Some(found) if found.values == values => {}
            Some(found) => {
                let message = format!(
                    "the enum `{name}` has the values {values:?} here, but {:?} at {}",
                    found.values, found.pointer
                );
                self.diags.push(self.file, pointer, message).help(
                    "every use of an enum must list the same values; name them apart in the \
                     overlay if they are different enums",
                );
            }
            None => {
                self.enums.insert(
                    name.to_string(),
                    FoundEnum {
                        values,
                        pointer: pointer.to_string(),
                    },
                );
            }
        }
    }
}
