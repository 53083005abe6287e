//! One side of a comparison ([`Side`]): the questions about a model's generated Rust that the
//! rules ask.

use crate::ir::*;

/// One model, with the questions about its generated Rust that the rules need. These mirror
/// `emit::types` (alias resolution, `Option` wrapping). Every generated struct implements
/// `Default` (a oneof's is `Unknown`, unset), so no rule asks which do.
#[derive(Clone, Copy)]
pub(crate) struct Side<'a>(pub(crate) &'a Model);

impl<'a> Side<'a> {
    pub(crate) fn kind(&self, ty: &TypeRef) -> Option<&'a TypeKind> {
        match ty {
            TypeRef::Named(id) => self.0.types.get(id).map(|d| &d.kind),
            _ => None,
        }
    }

    /// Follows aliases to the type that decides the encoding (bounded like the emitter's).
    pub(crate) fn resolve<'t>(&self, mut ty: &'t TypeRef) -> &'t TypeRef
    where
        'a: 't,
    {
        for _ in 0..64 {
            match self.kind(ty) {
                Some(TypeKind::Alias(inner)) => ty = inner,
                _ => return ty,
            }
        }
        ty
    }

    /// The Rust type the emitter writes for `ty` (aliases resolved), in short form.
    pub(crate) fn rust_type(&self, ty: &TypeRef) -> String {
        match self.resolve(ty) {
            TypeRef::String => "String".into(),
            TypeRef::Bool => "bool".into(),
            TypeRef::Int32 => "i32".into(),
            TypeRef::Integer | TypeRef::Int64 => "i64".into(),
            TypeRef::UInt64 => "u64".into(),
            TypeRef::Number => "f64".into(),
            TypeRef::Bytes => "Bytes".into(),
            TypeRef::Timestamp => "Timestamp".into(),
            TypeRef::Any => "serde_json::Value".into(),
            TypeRef::JsonObject => "serde_json::Map<String, serde_json::Value>".into(),
            TypeRef::Named(id) => id.clone(),
            TypeRef::List(item) => format!("Vec<{}>", self.rust_type(item)),
            TypeRef::Map(value) => format!("BTreeMap<String, {}>", self.rust_type(value)),
        }
    }

    pub(crate) fn is_collection(&self, ty: &TypeRef) -> bool {
        matches!(self.resolve(ty), TypeRef::List(_) | TypeRef::Map(_))
    }

    /// How the encoder writes a value of `ty`, as far as it can differ for one Rust type: an
    /// `i64` is a JSON number (`integer`) or a decimal string (`int64`).
    pub(super) fn written_as(&self, ty: &TypeRef) -> String {
        match self.resolve(ty) {
            TypeRef::Int32 | TypeRef::Integer => "a number".into(),
            TypeRef::Int64 | TypeRef::UInt64 => "a decimal string".into(),
            TypeRef::List(item) => format!("an array of {}", self.written_as(item)),
            TypeRef::Map(value) => format!("an object of {}", self.written_as(value)),
            other => format!("`{}`", self.rust_type(other)),
        }
    }

    /// For a 64-bit integer (or a list or map of them), how it travels, as a clause for a
    /// field's declaration (`, an int64 written as a decimal string`); empty otherwise.
    pub(super) fn wide_note(&self, ty: &TypeRef) -> String {
        match self.resolve(ty) {
            TypeRef::Int64 => {
                ", an int64 written as a decimal string, read from a string or a number".into()
            }
            TypeRef::UInt64 => {
                ", a uint64 written as a decimal string, read from a string or a number".into()
            }
            TypeRef::List(item) | TypeRef::Map(item) if !self.wide_note(item).is_empty() => {
                ", of 64-bit integers, each written as a decimal string".into()
            }
            _ => String::new(),
        }
    }

    /// The values an integer type holds, and its name in messages; `None` for other types.
    pub(super) fn integer_range(&self, ty: &TypeRef) -> Option<(i128, i128, &'static str)> {
        match self.resolve(ty) {
            TypeRef::Int32 => Some((i32::MIN.into(), i32::MAX.into(), "int32")),
            TypeRef::Integer => Some((i64::MIN.into(), i64::MAX.into(), "integer")),
            TypeRef::Int64 => Some((i64::MIN.into(), i64::MAX.into(), "int64")),
            TypeRef::UInt64 => Some((0, u64::MAX.into(), "uint64")),
            _ => None,
        }
    }

    pub(super) fn is_message(&self, ty: &TypeRef) -> bool {
        let ty = self.resolve(ty);
        matches!(ty, TypeRef::Timestamp)
            || matches!(
                self.kind(ty),
                Some(TypeKind::Struct(_) | TypeKind::OneOf(_) | TypeKind::Tagged(_))
            )
    }

    /// The tagged union that names `id` by its member `tag`, if any.
    pub(super) fn union_tagged_by(&self, id: &str, tag: &str) -> Option<&'a str> {
        self.0.types.iter().find_map(|(name, def)| match &def.kind {
            TypeKind::Tagged(t) if t.tag == tag && t.variants.iter().any(|v| v.ty == id) => {
                Some(name.as_str())
            }
            _ => None,
        })
    }

    /// Whether the field's Rust type is `Option<T>`.
    pub(crate) fn is_option(&self, f: &Field) -> bool {
        f.presence == Presence::Optional && !self.is_collection(&f.ty)
    }

    /// The field's Rust type.
    pub(super) fn field_type(&self, f: &Field) -> String {
        let ty = self.rust_type(&f.ty);
        if self.is_option(f) {
            format!("Option<{ty}>")
        } else {
            ty
        }
    }

    /// What an absent member decodes to and when the field is written.
    pub(super) fn presence_semantics(&self, f: &Field) -> String {
        match &f.presence {
            Presence::Required if self.is_message(&f.ty) => {
                "absent or null decodes to its default (as protobuf reads an unset message), and \
                 it is always written"
                    .into()
            }
            Presence::Required if self.is_collection(&f.ty) => {
                "absent decodes to empty, and it is always written (even when empty)".into()
            }
            Presence::Required => {
                "absent decodes to the type's default, and it is always written".into()
            }
            Presence::Optional => {
                "absent decodes to empty, and it is written when not empty".into()
            }
            Presence::Defaulted(lit) => format!(
                "absent decodes to {}, and it is written when it differs",
                literal(lit)
            ),
        }
    }
}

pub(super) fn presence_name(p: &Presence) -> String {
    match p {
        Presence::Required => "required".into(),
        Presence::Optional => "optional".into(),
        Presence::Defaulted(lit) => format!("default {}", literal(lit)),
    }
}

pub(super) fn literal(lit: &Literal) -> String {
    match lit {
        Literal::String(s) => format!("{s:?}"),
        Literal::Integer(i) => i.to_string(),
        Literal::Number(n) => n.to_string(),
        Literal::Bool(b) => b.to_string(),
    }
}

pub(super) fn kind_name(kind: &TypeKind) -> &'static str {
    match kind {
        TypeKind::Struct(_) => "struct",
        TypeKind::Enum(_) => "enum",
        TypeKind::OneOf(_) => "oneof enum",
        TypeKind::Tagged(_) => "tagged enum",
        TypeKind::Alias(_) => "type alias",
    }
}
