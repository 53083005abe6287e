//! The differ for enum values.

use super::differ::Differ;
use super::{ChangeKind, Class, ItemKind};
use crate::ir::*;

impl Differ<'_> {
    pub(super) fn enums(&mut self, id: &str, a: &EnumDef, b: &EnumDef) {
        // Pair the values by Rust variant first (the Rust item), then the values left on either
        // side by wire string (a Rust rename: variant names are derived from all the values
        // together, so one new value can respell the others).
        let mut to_new: Vec<Option<usize>> = a
            .values
            .iter()
            .map(|v| b.values.iter().position(|w| w.variant == v.variant))
            .collect();
        for (i, v) in a.values.iter().enumerate() {
            if to_new[i].is_none() {
                to_new[i] = b.values.iter().enumerate().position(|(j, w)| {
                    w.wire == v.wire
                        && !a.values.iter().any(|o| o.variant == w.variant)
                        && !to_new.contains(&Some(j))
                });
            }
        }
        // What a wire value decodes to among `values`: its variant, or `Unrecognized`.
        let decodes_to =
            |values: &[EnumValue], wire: &str| match values.iter().find(|x| x.wire == wire) {
                Some(x) => format!("`{id}::{}`", x.variant),
                None => "`Unrecognized`".to_string(),
            };
        for (v, j) in a.values.iter().zip(&to_new) {
            let path = format!("{id}::{}", v.variant);
            let Some(w) = j.map(|j| &b.values[j]) else {
                let now = decodes_to(&b.values, &v.wire);
                self.push(
                    ItemKind::Value,
                    path,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!(
                        "`{}` (number {}) removed: the variant is gone and the value now decodes \
                         to {now}",
                        v.wire, v.number
                    ),
                );
                continue;
            };
            if v.variant != w.variant {
                self.push(
                    ItemKind::Value,
                    &path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!(
                        "Rust variant `{}` -> `{}` (wire `{}`): code naming the old variant \
                         stops compiling; nothing changes on the wire",
                        v.variant, w.variant, v.wire
                    ),
                );
            }
            if v.wire != w.wire {
                let old_now = decodes_to(&b.values, &v.wire);
                let ours_then = decodes_to(&a.values, &w.wire);
                self.push(
                    ItemKind::Value,
                    &path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!(
                        "wire value `{}` -> `{}`: Rust code is unaffected (the same variant \
                         `{id}::{}`); on the wire, peers on the old schema send `{}`, which the \
                         new code decodes to {old_now}, and the new code writes `{}`, which code \
                         built from the old schema decodes to {ours_then}",
                        v.wire, w.wire, w.variant, v.wire, w.wire
                    ),
                );
            }
            if v.number != w.number {
                self.push(
                    ItemKind::Value,
                    &path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!(
                        "`{}`: ProtoJSON number {} -> {}: the integer form now means another \
                         value",
                        w.wire, v.number, w.number
                    ),
                );
            }
        }
        for (j, w) in b.values.iter().enumerate() {
            if to_new.contains(&Some(j)) {
                continue;
            }
            let was = match a.values.iter().find(|v| v.wire == w.wire) {
                Some(v) => format!(
                    "on the wire, `{}` used to decode to `{id}::{}`",
                    w.wire, v.variant
                ),
                None => "on the wire it is compatible (the value used to decode to `Unrecognized`)"
                    .to_string(),
            };
            self.push(
                ItemKind::Value,
                format!("{id}::{}", w.variant),
                ChangeKind::Added,
                Class::Breaking,
                format!(
                    "new value `{}` (number {}): exhaustive matches stop compiling (open enums \
                     are not #[non_exhaustive]); {was}",
                    w.wire, w.number
                ),
            );
        }
    }
}
