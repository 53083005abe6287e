//! Emission of `schemars::JsonSchema` impls: JSON Schema back out of the IR, so that users who need
//! a schema of the model (tool definitions, validation elsewhere) get one that matches the input:
//! the same definitions, properties, `required` lists, enum values and oneof constraints.
//!
//! Each named type's schema is written as a `schemars::json_schema!` literal; references to other
//! types go through the generator (`subschema_for`), so `$ref`s and definitions are schemars' own.
//! Aliases (`Struct`, `Value`, `Timestamp`) are Rust type aliases of foreign types, which cannot
//! carry an impl: private marker types stand in for them so they still get a definition each.

use super::EmitOptions;
use crate::ir::{Model, OneOfGroup, Presence, StructDef, TypeDef, TypeKind, TypeRef};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Emits `json_schema.rs`. Refers to the model's types through the parent module.
pub fn emit_json_schema(model: &Model, _opts: &EmitOptions) -> TokenStream {
    let aliases: Vec<&TypeDef> = model
        .types
        .values()
        .filter(|t| matches!(t.kind, TypeKind::Alias(_)))
        .collect();
    let impls = model.types.values().map(|def| {
        let name = &def.name;
        let ident = Ident::new(name, Span::call_site());
        let target = match def.kind {
            TypeKind::Alias(_) => quote!(aliases::#ident),
            _ => quote!(super::#ident),
        };
        let body = json_tokens(&type_schema(model, def));
        quote! {
            impl ::schemars::JsonSchema for #target {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Borrowed(#name)
                }
                fn schema_id() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Borrowed(::core::concat!(::core::module_path!(), "::", #name))
                }
                fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                    let _ = &generator;
                    ::schemars::json_schema!(#body)
                }
            }
        }
    });
    let alias_idents = aliases
        .iter()
        .map(|t| Ident::new(&t.name, Span::call_site()));
    let all = model.types.values().map(|def| {
        let ident = Ident::new(&def.name, Span::call_site());
        match def.kind {
            TypeKind::Alias(_) => quote!(aliases::#ident),
            _ => quote!(super::#ident),
        }
    });

    quote! {
        /// Stand-ins for the aliases, which name foreign types and so cannot carry an impl.
        mod aliases {
            #( pub(super) struct #alias_idents; )*
        }

        #(#impls)*

        /// Every definition of the model as JSON Schema (2020-12, as schemars writes it), keyed by
        /// type name: what a `$defs` section of a schema of the whole model holds.
        pub fn json_schema_definitions() -> ::serde_json::Map<::std::string::String, ::serde_json::Value> {
            let mut generator = ::schemars::SchemaGenerator::default();
            #( generator.subschema_for::<#all>(); )*
            generator.take_definitions(true)
        }
    }
}

/// A JSON value with Rust expressions at some leaves: the argument of `json_schema!`.
enum Json {
    Object(Vec<(String, Json)>),
    Array(Vec<Json>),
    String(String),
    Bool(bool),
    /// An expression producing something serializable (a subschema).
    Expr(TokenStream),
}

fn json_tokens(json: &Json) -> TokenStream {
    match json {
        Json::Object(members) => {
            let entries = members.iter().map(|(k, v)| {
                let v = json_tokens(v);
                quote!(#k: #v)
            });
            quote!({ #(#entries),* })
        }
        Json::Array(items) => {
            let items = items.iter().map(json_tokens);
            quote!([ #(#items),* ])
        }
        Json::String(s) => quote!(#s),
        Json::Bool(b) => quote!(#b),
        Json::Expr(e) => quote!((#e)),
    }
}

fn string(s: &str) -> Json {
    Json::String(s.to_string())
}

/// The schema of one named type, as the input schema would state it.
fn type_schema(model: &Model, def: &TypeDef) -> Json {
    let mut members = match &def.kind {
        TypeKind::Struct(s) => struct_schema(model, s),
        TypeKind::OneOf(group) => {
            let mut members = vec![("type".to_string(), string("object"))];
            members.extend(oneof_members(model, group));
            members
        }
        TypeKind::Enum(e) => vec![
            ("type".to_string(), string("string")),
            (
                "enum".to_string(),
                Json::Array(e.values.iter().map(|v| string(&v.wire)).collect()),
            ),
        ],
        // The input's own spelling: a `oneOf` of `$ref`s and the tag keyword (our dialect reads
        // it back; other tools ignore an `x-` keyword). Each variant's schema pins the tag with
        // `const`, so `oneOf` alone already admits exactly one branch.
        TypeKind::Tagged(t) => vec![
            (
                "oneOf".to_string(),
                Json::Array(
                    t.variants
                        .iter()
                        .map(|v| ref_schema(model, &TypeRef::Named(v.ty.clone())))
                        .collect(),
                ),
            ),
            ("x-discriminator".to_string(), string(&t.tag)),
        ],
        TypeKind::Alias(target) => match ref_schema(model, target) {
            Json::Object(members) => members,
            other => vec![("allOf".to_string(), Json::Array(vec![other]))],
        },
    };
    if let Some(doc) = &def.doc {
        members.push(("description".to_string(), string(doc)));
    }
    Json::Object(members)
}

fn struct_schema(model: &Model, s: &StructDef) -> Vec<(String, Json)> {
    let mut properties = Vec::new();
    let mut required = Vec::new();
    for f in &s.fields {
        properties.push((
            f.json_name.clone(),
            property(model, &f.ty, &f.doc, f.deprecated),
        ));
        if f.presence == Presence::Required {
            required.push(string(&f.json_name));
        }
    }
    for c in &s.consts {
        let value = match &c.value {
            crate::ir::Literal::String(v) => string(v),
            crate::ir::Literal::Bool(b) => Json::Bool(*b),
            crate::ir::Literal::Integer(i) => Json::Expr(quote!(#i)),
            crate::ir::Literal::Number(n) => Json::Expr(quote!(#n)),
        };
        properties.push((
            c.json_name.clone(),
            Json::Object(vec![("const".to_string(), value)]),
        ));
        if c.required {
            required.push(string(&c.json_name));
        }
    }
    let mut members = vec![("type".to_string(), string("object"))];
    let mut oneof = Vec::new();
    if let Some(field) = &s.oneof {
        for (key, value) in oneof_members(model, &field.group) {
            match (key.as_str(), value) {
                ("properties", Json::Object(props)) => properties.extend(props),
                (_, value) => oneof.push((key, value)),
            }
        }
    }
    members.push(("properties".to_string(), Json::Object(properties)));
    if !required.is_empty() {
        members.push(("required".to_string(), Json::Array(required)));
    }
    members.extend(oneof);
    members
}

/// `properties` for the members and `oneOf` requiring exactly one of them.
fn oneof_members(model: &Model, group: &OneOfGroup) -> Vec<(String, Json)> {
    let properties = group
        .members
        .iter()
        .map(|m| {
            (
                m.json_name.clone(),
                property(model, &m.ty, &m.doc, m.deprecated),
            )
        })
        .collect();
    let one_of = group
        .members
        .iter()
        .map(|m| {
            Json::Object(vec![(
                "required".to_string(),
                Json::Array(vec![string(&m.json_name)]),
            )])
        })
        .collect();
    vec![
        ("properties".to_string(), Json::Object(properties)),
        ("oneOf".to_string(), Json::Array(one_of)),
    ]
}

fn property(model: &Model, ty: &TypeRef, doc: &Option<String>, deprecated: bool) -> Json {
    let mut schema = match ref_schema(model, ty) {
        Json::Object(members) => members,
        other => vec![("allOf".to_string(), Json::Array(vec![other]))],
    };
    if let Some(doc) = doc {
        schema.push(("description".to_string(), string(doc)));
    }
    if deprecated {
        schema.push(("deprecated".to_string(), Json::Bool(true)));
    }
    Json::Object(schema)
}

/// The schema of a use of a type: inline for scalars, a subschema (a `$ref`) for named types.
fn ref_schema(model: &Model, ty: &TypeRef) -> Json {
    let object = |members: &[(&str, &str)]| {
        Json::Object(
            members
                .iter()
                .map(|(k, v)| (k.to_string(), string(v)))
                .collect(),
        )
    };
    match ty {
        TypeRef::String => object(&[("type", "string")]),
        TypeRef::Bool => object(&[("type", "boolean")]),
        TypeRef::Int32 => object(&[("type", "integer"), ("format", "int32")]),
        TypeRef::Integer => object(&[("type", "integer")]),
        // Written as a string, read from a string or a number: the input's own spelling.
        TypeRef::Int64 | TypeRef::UInt64 => Json::Object(vec![
            (
                "type".to_string(),
                Json::Array(vec![string("integer"), string("string")]),
            ),
            (
                "format".to_string(),
                string(if *ty == TypeRef::Int64 {
                    "int64"
                } else {
                    "uint64"
                }),
            ),
        ]),
        TypeRef::Number => object(&[("type", "number")]),
        TypeRef::Bytes => object(&[("type", "string"), ("format", "byte")]),
        TypeRef::Timestamp => object(&[("type", "string"), ("format", "date-time")]),
        TypeRef::Any => Json::Object(Vec::new()),
        TypeRef::JsonObject => object(&[("type", "object")]),
        TypeRef::Named(id) => {
            let ident = Ident::new(id, Span::call_site());
            let target = match model.types.get(id).map(|t| &t.kind) {
                Some(TypeKind::Alias(_)) => quote!(aliases::#ident),
                _ => quote!(super::#ident),
            };
            // A `$ref` object, to which the use site adds its description.
            Json::Expr(quote!(generator.subschema_for::<#target>()))
        }
        TypeRef::List(item) => Json::Object(vec![
            ("type".to_string(), string("array")),
            ("items".to_string(), ref_schema(model, item)),
        ]),
        TypeRef::Map(value) => Json::Object(vec![
            ("type".to_string(), string("object")),
            ("additionalProperties".to_string(), ref_schema(model, value)),
        ]),
    }
}
