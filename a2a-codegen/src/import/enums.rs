//! Enums: the overlay's `[enum.X]` tables, naming the inlined enums (overlay, `title`, or the zero
//! value's prefix), checking that every use of a name lists the same values, and materialising
//! each as a definition of its own.

use super::idioms::InlinedEnum;
use super::importer::{FoundEnum, Importer};
use super::origin::Origin;
use crate::diag::pointer_push;
use crate::naming;
use serde_json::{Map, Value};

impl Importer<'_> {
    pub(super) fn inline_enum(
        &mut self,
        obj: &Map<String, Value>,
        inlined: InlinedEnum,
        pointer: &str,
    ) -> Option<String> {
        let InlinedEnum { zero, rest } = inlined;
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

    /// Reads the overlay's `[enum.X]` tables: a v1 enum named by its zero value, or a v0.3 inline
    /// enum by the JSON pointer of its property.
    pub(super) fn read_overlay_enums(&mut self) {
        let overlay = self.overlay;
        for (name, e) in &overlay.value.enums {
            let at = pointer_push("/enum", name);
            if !naming::is_identifier(name) {
                self.diags
                    .push(overlay.label, &at, format!("`{name}` is not a type name"))
                    .help("name the enum like a Rust type, e.g. [enum.TaskState]");
                continue;
            }
            match (&e.zero, &e.at) {
                (Some(zero), None) => {
                    if let Some(other) = self.zero_names.insert(zero.clone(), name.clone()) {
                        self.diags
                            .push(
                                overlay.label,
                                format!("{at}/zero"),
                                format!("`{zero}` already names enum `{other}`"),
                            )
                            .help("each inlined enum is named once, by its zero value");
                    }
                }
                (None, Some(site)) => {
                    if self
                        .value
                        .pointer(site)
                        .and_then(|v| v.get("enum"))
                        .is_none()
                    {
                        self.diags
                            .push(
                                overlay.label,
                                format!("{at}/at"),
                                format!("the schema has no inline `enum` at `{site}`"),
                            )
                            .help(
                                "give the JSON pointer of the property holding the enum, e.g. \
                                   \"/definitions/Message/properties/role\"",
                            );
                    } else {
                        self.enum_sites.insert(site.clone(), name.clone());
                    }
                }
                _ => {
                    self.diags
                        .push(
                            overlay.label,
                            &at,
                            "an enum table needs exactly one of `zero` and `at`",
                        )
                        .help(
                            "`zero` names an inlined ProtoJSON enum (v1) by its zero value; `at` \
                             names an inline enum (v0.3) by the JSON pointer of its property",
                        );
                }
            }
        }
    }

    /// Adds a string enum definition for every enum found, with the overlay's description; a name
    /// that is already a definition is an error.
    pub(super) fn materialise_enums(
        &mut self,
        defs: &mut Map<String, Value>,
        origins: &mut Vec<Origin>,
    ) {
        for (name, found) in std::mem::take(&mut self.enums) {
            let mut def = Map::new();
            def.insert("type".into(), "string".into());
            def.insert(
                "enum".into(),
                found
                    .values
                    .iter()
                    .map(|v| Value::from(v.as_str()))
                    .collect(),
            );
            if let Some(text) = self
                .overlay
                .value
                .enums
                .get(&name)
                .and_then(|e| e.description.as_ref())
            {
                def.insert("description".into(), text.as_str().into());
            }
            origins.push(Origin {
                new: pointer_push("/$defs", &name),
                file: self.file.to_string(),
                old: found.pointer.clone(),
                keep_rest: false,
            });
            if defs.contains_key(&name) {
                self.diags
                    .push(
                        self.file,
                        &found.pointer,
                        format!("this enum would be named `{name}`, which is already a definition"),
                    )
                    .help(format!(
                        "name it in the overlay: [enum.<Name>] zero = \"{}\"",
                        found.values[0]
                    ));
            }
            defs.insert(name.clone(), Value::Object(def));
            self.enums.insert(name, found);
        }
    }

    /// Every `[enum.X]` table must have named an enum of a generated definition.
    pub(super) fn check_overlay_enums_were_found(&mut self) {
        let overlay = self.overlay;
        for (name, e) in &overlay.value.enums {
            if let Some(site) = &e.at {
                let found = self.enums.get(name).is_some_and(|f| f.pointer == *site);
                if !found && self.enum_sites.get(site) == Some(name) {
                    self.diags
                        .push(
                            overlay.label,
                            format!("{}/at", pointer_push("/enum", name)),
                            format!(
                                "the enum at `{site}` is in a definition that is not generated"
                            ),
                        )
                        .help("remove the table");
                }
            }
            let Some(zero) = &e.zero else {
                continue;
            };
            let matched = self
                .enums
                .get(name)
                .is_some_and(|found| found.values.first() == Some(zero));
            if !matched && self.zero_names.get(zero) == Some(name) {
                self.diags
                    .push(
                        overlay.label,
                        format!("{}/zero", pointer_push("/enum", name)),
                        format!("the schema has no inlined enum whose zero value is `{zero}`"),
                    )
                    .help("fix the value (the `pattern` branch of the enum's `anyOf`, without ^ and $), or remove the table");
            }
        }
    }
}
