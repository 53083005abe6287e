//! The model differ's state and the helpers every item kind uses.

use super::side::Side;
use super::{Change, ChangeKind, Class, ItemKind};
use crate::ir::*;

/// The state of one comparison: the two models and the changes found so far. Each item kind
/// adds its own methods (`types.rs`, `enums.rs`, `methods.rs`, `errors.rs`).
pub(super) struct Differ<'a> {
    pub(super) old: Side<'a>,
    pub(super) new: Side<'a>,
    pub(super) out: Vec<Change>,
}

impl Differ<'_> {
    pub(super) fn push(
        &mut self,
        kind: ItemKind,
        path: impl Into<String>,
        change: ChangeKind,
        class: Class,
        detail: impl Into<String>,
    ) {
        self.out.push(Change {
            kind,
            path: path.into(),
            change,
            class,
            detail: detail.into(),
        });
    }

    /// Whether a reference changed in a way the Rust type shows (a respelling, e.g. through an
    /// alias of the same type, does not count; a change of the alias itself is reported there).
    pub(super) fn type_changed(&self, a: &TypeRef, b: &TypeRef) -> Option<(String, String)> {
        let (ra, rb) = (self.old.rust_type(a), self.new.rust_type(b));
        (a != b && ra != rb).then_some((ra, rb))
    }

    /// When a reference keeps its Rust type but is written differently (an `i64` that was a
    /// plain `integer`, written as a number, becomes an `int64`, written as a decimal string):
    /// both forms.
    pub(super) fn encoding_changed(&self, a: &TypeRef, b: &TypeRef) -> Option<(String, String)> {
        if a == b || self.type_changed(a, b).is_some() {
            return None;
        }
        let (wa, wb) = (self.old.written_as(a), self.new.written_as(b));
        (wa != wb).then_some((wa, wb))
    }

    /// Reports an [`encoding_changed`](Self::encoding_changed) reference: behaviour, since every
    /// generated reader takes a 64-bit integer, or a plain integer, from a number or a string.
    pub(super) fn encoding(&mut self, kind: ItemKind, path: &str, a: &TypeRef, b: &TypeRef) {
        if let Some((wa, wb)) = self.encoding_changed(a, b) {
            let rust = self.new.rust_type(b);
            self.push(
                kind,
                path,
                ChangeKind::Changed,
                Class::Behaviour,
                format!(
                    "Rust type `{rust}` stays; written as {wa} -> {wb}: the decoders of both \
                     schemas read either form (ProtoJSON integers are read from numbers and \
                     strings), so only what the encoder writes changes"
                ),
            );
        }
    }

    /// What a change between two integer types does on the wire, as a clause to add to the
    /// Rust type change (`int32` -> `int64`); `None` when either is not an integer.
    pub(super) fn integer_wire(&self, a: &TypeRef, b: &TypeRef) -> Option<String> {
        let (lo_a, hi_a, name_a) = self.old.integer_range(a)?;
        let (lo_b, hi_b, name_b) = self.new.integer_range(b)?;
        let mut clauses = Vec::new();
        if lo_b > lo_a || hi_b < hi_a {
            clauses.push(format!(
                "values outside the {name_b} range, which peers on the old schema may send as \
                 {name_a}, no longer decode"
            ));
        } else {
            clauses.push(format!(
                "every {name_a} value peers on the old schema send still decodes"
            ));
        }
        let (wa, wb) = (self.old.written_as(a), self.new.written_as(b));
        if wa != wb {
            clauses.push(format!(
                "it is written as {wb} instead of {wa} (both forms are read on either side, \
                 within range)"
            ));
        }
        Some(format!("; on the wire {}", clauses.join(", and ")))
    }

    /// The detail of a Rust type change: the two types, and for integers what the wire sees.
    pub(super) fn type_change_detail(
        &self,
        a: &TypeRef,
        b: &TypeRef,
        ra: &str,
        rb: &str,
    ) -> String {
        format!(
            "type `{ra}` -> `{rb}`{}",
            self.integer_wire(a, b).unwrap_or_default()
        )
    }
}
