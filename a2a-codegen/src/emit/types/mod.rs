//! Emission of the data model: structs, open enums, oneof enums, tagged unions and aliases, each
//! with its serde implementations, one file per shape (`visitor.rs` writes the `Deserialize` of
//! every object-shaped type).
//!
//! Why generated visitors instead of `#[derive(Deserialize)]`: a oneof beside ordinary fields
//! (`Part`) would need `#[serde(flatten)]`, which buffers the whole object; open enums need to
//! accept both names and ProtoJSON integers; oneofs must stay open (a member this version does not
//! know is kept as the `Unknown` variant); absent REQUIRED fields must default, as protobuf reads
//! them; a member sent twice is last-wins, as in protobuf, where derive refuses it; and null must
//! mean "absent". What does not change from one type to the next (the key seed, the visitor
//! shell, const checks, oneof conflicts, open-enum and tagged-union decoding) is generic code in
//! the runtime's `codec` module; the generated part names the members and builds the value, at
//! the cost of plain serde_json parsing, in one pass.

mod enums;
mod oneofs;
mod structs;
mod tagged;
mod visitor;

use super::{doc_attrs, EmitOptions};
use crate::facts::{UNKNOWN_FIELDS, UNKNOWN_PROTOBUF_FIELDS};
use crate::ir::*;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

/// Emits every type of the model, in id order.
pub fn emit_types(model: &Model, opts: &EmitOptions) -> TokenStream {
    let cx = Cx { model, opts };
    let items = model.types.values().map(|def| match &def.kind {
        TypeKind::Struct(s) => cx.emit_struct(def, s),
        TypeKind::Enum(e) => cx.emit_enum(def, e),
        TypeKind::OneOf(g) => cx.emit_oneof_type(def, g),
        TypeKind::Tagged(t) => cx.emit_tagged(def, t),
        TypeKind::Alias(ty) => cx.emit_alias(def, ty),
    });
    quote! { #(#items)* }
}

/// What a field documented as "required" means, said once in the module docs rather than on
/// every such field.
const PRESENCE_DOC: &str = "A field documented as *required* is always written; absent or `null` \
on the wire, it reads as its type's default value, as protobuf reads it.";

/// The module docs' paragraph on presence, when some struct of the model has a required field.
pub fn presence_doc(model: &Model) -> Option<&'static str> {
    let required = model.types.values().any(|def| match &def.kind {
        TypeKind::Struct(s) => s.fields.iter().any(|f| f.presence == Presence::Required),
        _ => false,
    });
    required.then_some(PRESENCE_DOC)
}

struct Cx<'a> {
    model: &'a Model,
    opts: &'a EmitOptions,
}

impl Cx<'_> {
    /// The struct member that keeps unknown protobuf fields, with its gate (the codec's), when
    /// both `preserve_unknown_fields` and the codec are on: `(gate, field)`.
    fn unknown_protobuf(&self) -> Option<(&TokenStream, Ident)> {
        let gate = self
            .opts
            .protobuf
            .as_ref()
            .filter(|_| self.opts.preserve_unknown)?;
        Some((gate, ident(UNKNOWN_PROTOBUF_FIELDS)))
    }
}

pub(crate) fn ident(name: &str) -> Ident {
    if crate::naming::is_keyword(name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// How a value is read off the wire: the type serde decodes, and how to turn it into the field's
/// Rust type (identity for most; ProtoJSON number forms go through runtime wrappers).
struct Wire {
    ty: TokenStream,
    convert: Option<Box<dyn Fn(TokenStream) -> TokenStream>>,
}

impl Wire {
    fn apply(&self, value: TokenStream) -> TokenStream {
        match &self.convert {
            Some(f) => f(value),
            None => value,
        }
    }
}

impl Cx<'_> {
    /// Follows aliases to the type that decides the encoding.
    fn resolve<'t>(&'t self, ty: &'t TypeRef) -> &'t TypeRef {
        self.model.resolve(ty)
    }

    fn rust_type(&self, ty: &TypeRef) -> TokenStream {
        let rt = &self.opts.runtime;
        match self.resolve(ty) {
            TypeRef::String => quote!(::std::string::String),
            TypeRef::Bool => quote!(bool),
            TypeRef::Int32 => quote!(i32),
            TypeRef::Integer | TypeRef::Int64 => quote!(i64),
            TypeRef::UInt64 => quote!(u64),
            TypeRef::Number => quote!(f64),
            TypeRef::Bytes => quote!(#rt::Bytes),
            TypeRef::Timestamp => quote!(#rt::Timestamp),
            TypeRef::Any => quote!(::serde_json::Value),
            TypeRef::JsonObject => {
                quote!(::serde_json::Map<::std::string::String, ::serde_json::Value>)
            }
            TypeRef::Named(id) => {
                let id = ident(id);
                quote!(#id)
            }
            TypeRef::List(item) => {
                let item = self.rust_type(item);
                quote!(::std::vec::Vec<#item>)
            }
            TypeRef::Map(value) => {
                let value = self.rust_type(value);
                quote!(::std::collections::BTreeMap<::std::string::String, #value>)
            }
        }
    }

    fn wire(&self, ty: &TypeRef) -> Wire {
        let rt = self.opts.runtime.clone();
        let number = |wrapper: &str| {
            let wrapper = format_ident!("{}", wrapper);
            Wire {
                ty: quote!(#rt::wire::num::#wrapper),
                convert: Some(Box::new(|v| quote!(#v.0))),
            }
        };
        match self.resolve(ty) {
            TypeRef::Int32 => number("ProtoI32"),
            TypeRef::Integer | TypeRef::Int64 => number("ProtoI64"),
            TypeRef::UInt64 => number("ProtoU64"),
            TypeRef::Number => number("ProtoF64"),
            TypeRef::List(item) => {
                let inner = self.wire(item);
                match inner.convert {
                    None => Wire {
                        ty: self.rust_type(ty),
                        convert: None,
                    },
                    Some(conv) => {
                        let item_ty = inner.ty;
                        let each = conv(quote!(__v));
                        Wire {
                            ty: quote!(::std::vec::Vec<#item_ty>),
                            convert: Some(Box::new(
                                move |v| quote!(#v.into_iter().map(|__v| #each).collect()),
                            )),
                        }
                    }
                }
            }
            TypeRef::Map(value) => {
                let inner = self.wire(value);
                match inner.convert {
                    None => Wire {
                        ty: self.rust_type(ty),
                        convert: None,
                    },
                    Some(conv) => {
                        let value_ty = inner.ty;
                        let each = conv(quote!(__v));
                        Wire {
                            ty: quote!(::std::collections::BTreeMap<::std::string::String, #value_ty>),
                            convert: Some(Box::new(
                                move |v| quote!(#v.into_iter().map(|(__k, __v)| (__k, #each)).collect()),
                            )),
                        }
                    }
                }
            }
            _ => Wire {
                ty: self.rust_type(ty),
                convert: None,
            },
        }
    }

    /// Whether values of `ty` are written through the runtime's `num::Decimal`: 64-bit integers,
    /// which ProtoJSON writes as decimal strings, and lists and maps of them.
    fn is_wide(&self, ty: &TypeRef) -> bool {
        match self.resolve(ty) {
            TypeRef::Int64 | TypeRef::UInt64 => true,
            TypeRef::List(inner) | TypeRef::Map(inner) => self.is_wide(inner),
            _ => false,
        }
    }

    /// What `serialize_entry` is given for a value of type `ty` held by the reference `value`:
    /// the reference itself, or for 64-bit integers (and lists and maps of them) a
    /// `num::Decimal` around it, which writes decimal strings.
    fn encoded(&self, ty: &TypeRef, value: TokenStream) -> TokenStream {
        if self.is_wide(ty) {
            let rt = &self.opts.runtime;
            quote!(&#rt::wire::num::Decimal(#value))
        } else {
            value
        }
    }

    /// Lists and maps: never `Option`, empty by default, skipped on encode when empty.
    fn is_collection(&self, ty: &TypeRef) -> bool {
        matches!(self.resolve(ty), TypeRef::List(_) | TypeRef::Map(_))
    }

    /// The JSON names (name, then alias) of the REQUIRED fields of a struct type: what a tagged
    /// union's variant must carry to be chosen by shape when the tag is missing.
    fn required_names(&self, id: &str) -> Vec<Vec<String>> {
        match self.model.types.get(id).map(|d| &d.kind) {
            Some(TypeKind::Struct(s)) => s
                .fields
                .iter()
                .filter(|f| matches!(f.presence, Presence::Required))
                .map(|f| {
                    std::iter::once(f.json_name.clone())
                        .chain(f.alias.clone())
                        .collect()
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    fn field_type(&self, f: &Field) -> TokenStream {
        let ty = self.rust_type(&f.ty);
        match f.presence {
            Presence::Optional if !self.is_collection(&f.ty) => quote!(::core::option::Option<#ty>),
            _ => ty,
        }
    }

    fn field_doc(&self, f: &Field) -> TokenStream {
        let mut doc = f.doc.clone().unwrap_or_default();
        if !doc.is_empty() {
            doc.push_str("\n\n");
        }
        doc.push_str(&format!("JSON: `{}`", f.json_name));
        if let Some(alias) = &f.alias {
            doc.push_str(&format!(" (`{alias}` also accepted)"));
        }
        doc.push_str(match &f.presence {
            // What "required" means is said once, in the module docs (`PRESENCE_DOC`).
            Presence::Required => "; required.",
            Presence::Optional if self.is_collection(&f.ty) => "; empty when absent.",
            Presence::Optional => "; `None` when absent.",
            Presence::Defaulted(_) => "; the schema default when absent.",
        });
        if f.deprecated {
            doc.push_str("\n\nDeprecated by the specification.");
        }
        doc_attrs(&doc)
    }

    fn emit_alias(&self, def: &TypeDef, ty: &TypeRef) -> TokenStream {
        let name = ident(&def.name);
        let docs = doc_attrs(def.doc.as_deref().unwrap_or(""));
        let target = self.rust_type(ty);
        quote! {
            #docs
            pub type #name = #target;
        }
    }
}
