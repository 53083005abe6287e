//! Emission of the data model: structs, open enums, oneof enums and aliases, each with serde
//! implementations written out in full.
//!
//! Why hand-written visitors instead of `#[derive(Deserialize)]`: a oneof beside ordinary fields
//! (`Part`) would need `#[serde(flatten)]`, which buffers the whole object; open enums need to
//! accept both names and ProtoJSON integers; oneofs must stay open (a member this version does not
//! know is kept as the `Unknown` variant); absent REQUIRED fields must default, as protobuf reads
//! them; and null must mean "absent". Generating the visitor gives all
//! of that at the cost of plain serde_json parsing, in one pass.

use super::{doc_attrs, EmitOptions};
use crate::facts::UNKNOWN_FIELDS;
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

struct Cx<'a> {
    model: &'a Model,
    opts: &'a EmitOptions,
}

fn ident(name: &str) -> Ident {
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
    fn resolve<'t>(&'t self, mut ty: &'t TypeRef) -> &'t TypeRef {
        // Bounded: validation rejects alias cycles as self-containing types.
        for _ in 0..64 {
            match ty {
                TypeRef::Named(id) => match self.model.types.get(id).map(|d| &d.kind) {
                    Some(TypeKind::Alias(inner)) => ty = inner,
                    _ => return ty,
                },
                _ => return ty,
            }
        }
        ty
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
                ty: quote!(#rt::num::#wrapper),
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
            quote!(&#rt::num::Decimal(#value))
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
            Presence::Required => {
                "; required: always written; absent or `null` on the wire reads as the default \
                 value, as protobuf reads it."
            }
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

    // ----- structs -----------------------------------------------------------------------------

    fn emit_struct(&self, def: &TypeDef, s: &StructDef) -> TokenStream {
        let name = ident(&def.name);
        let docs = doc_attrs(def.doc.as_deref().unwrap_or(""));
        let fields = s.fields.iter().map(|f| {
            let fname = ident(&f.rust_name);
            let ty = self.field_type(f);
            let fdoc = self.field_doc(f);
            quote! { #fdoc pub #fname: #ty, }
        });
        let oneof_field = s.oneof.as_ref().map(|o| {
            let fname = ident(&o.rust_name);
            let ename = ident(&o.enum_name);
            let members: Vec<String> = o
                .group
                .members
                .iter()
                .map(|m| format!("`{}`", m.json_name))
                .collect();
            let fdoc = doc_attrs(&format!(
                "The `{}` oneof: one of {} on the wire; `Unknown` for a member this version does \
                 not know, or none.",
                o.group.name.as_deref().unwrap_or(&o.rust_name),
                members.join(", ")
            ));
            quote! { #fdoc pub #fname: #ename, }
        });
        let extras = self.opts.preserve_unknown.then(|| {
            let fname = ident(UNKNOWN_FIELDS);
            quote! {
                #[doc = " Members this schema does not name, kept as they arrived and written back on encode."]
                pub #fname: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
            }
        });
        // Every generated type has a `Default` (oneofs: `Unknown`, unset), so an absent REQUIRED
        // message can decode to it, as protobuf reads one.
        let any_defaulted = s
            .fields
            .iter()
            .any(|f| matches!(f.presence, Presence::Defaulted(_)));
        let derive_default = (!any_defaulted).then(|| quote!(Default,));
        let manual_default = any_defaulted.then(|| self.emit_manual_default(&name, s));
        let ser = self.emit_struct_serialize(&name, s);
        let de = self.emit_visitor(
            &def.name,
            quote!(#name),
            &s.fields,
            &s.consts,
            s.oneof.as_ref(),
            None,
        );
        let oneof_enum = s
            .oneof
            .as_ref()
            .map(|o| self.emit_oneof_enum(&o.enum_name, &def.name, &o.group, None));
        quote! {
            #docs
            #[derive(Clone, Debug, PartialEq, #derive_default)]
            pub struct #name {
                #(#fields)*
                #oneof_field
                #extras
            }
            #manual_default
            #ser
            #de
            #oneof_enum
        }
    }

    fn literal_tokens(lit: &Literal) -> TokenStream {
        match lit {
            Literal::String(s) => quote!(#s),
            Literal::Integer(i) => {
                let lit = proc_macro2::Literal::i64_unsuffixed(*i);
                quote!(#lit)
            }
            Literal::Number(n) => {
                let lit = proc_macro2::Literal::f64_unsuffixed(*n);
                quote!(#lit)
            }
            Literal::Bool(b) => quote!(#b),
        }
    }

    /// The value a field takes when absent (for `Default` and for decoding).
    fn default_value(lit: &Literal) -> TokenStream {
        let tokens = Self::literal_tokens(lit);
        match lit {
            Literal::String(_) => quote!(::std::string::String::from(#tokens)),
            _ => tokens,
        }
    }

    fn emit_manual_default(&self, name: &Ident, s: &StructDef) -> TokenStream {
        let inits = s.fields.iter().map(|f| {
            let fname = ident(&f.rust_name);
            match &f.presence {
                Presence::Defaulted(lit) => {
                    let v = Self::default_value(lit);
                    quote!(#fname: #v,)
                }
                _ => quote!(#fname: ::core::default::Default::default(),),
            }
        });
        // A oneof beside the fields starts unset (`Unknown`), as in the derived `Default`.
        let oneof = s.oneof.as_ref().map(|o| {
            let fname = ident(&o.rust_name);
            quote!(#fname: ::core::default::Default::default(),)
        });
        let extras = self.opts.preserve_unknown.then(|| {
            let fname = ident(UNKNOWN_FIELDS);
            quote!(#fname: ::serde_json::Map::new(),)
        });
        quote! {
            impl ::core::default::Default for #name {
                fn default() -> Self {
                    Self { #(#inits)* #oneof #extras }
                }
            }
        }
    }

    fn emit_struct_serialize(&self, name: &Ident, s: &StructDef) -> TokenStream {
        let consts = s.consts.iter().map(|c| {
            let key = &c.json_name;
            let value = Self::literal_tokens(&c.value);
            quote!(__map.serialize_entry(#key, &#value)?;)
        });
        let fields = s.fields.iter().map(|f| {
            let key = &f.json_name;
            let fname = ident(&f.rust_name);
            let own = self.encoded(&f.ty, quote!(&self.#fname));
            match &f.presence {
                Presence::Required => quote!(__map.serialize_entry(#key, #own)?;),
                Presence::Optional if self.is_collection(&f.ty) => quote! {
                    if !self.#fname.is_empty() {
                        __map.serialize_entry(#key, #own)?;
                    }
                },
                Presence::Optional => {
                    let value = self.encoded(&f.ty, quote!(__v));
                    quote! {
                        if let ::core::option::Option::Some(__v) = &self.#fname {
                            __map.serialize_entry(#key, #value)?;
                        }
                    }
                }
                Presence::Defaulted(lit) => {
                    let v = Self::literal_tokens(lit);
                    quote! {
                        if self.#fname != #v {
                            __map.serialize_entry(#key, #own)?;
                        }
                    }
                }
            }
        });
        let oneof = s.oneof.as_ref().map(|o| {
            let fname = ident(&o.rust_name);
            let ename = ident(&o.enum_name);
            let arms = o.group.members.iter().map(|m| {
                let variant = ident(&m.variant);
                let key = &m.json_name;
                let value = self.encoded(&m.ty, quote!(__v));
                quote!(#ename::#variant(__v) => __map.serialize_entry(#key, #value)?,)
            });
            quote! {
                match &self.#fname {
                    #(#arms)*
                    #ename::Unknown(__u) => __u.serialize_member(&mut __map)?,
                }
            }
        });
        let extras = self.opts.preserve_unknown.then(|| {
            let fname = ident(UNKNOWN_FIELDS);
            quote! {
                for (__k, __v) in &self.#fname {
                    __map.serialize_entry(__k, __v)?;
                }
            }
        });
        quote! {
            impl ::serde::Serialize for #name {
                fn serialize<__S: ::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    use ::serde::ser::SerializeMap as _;
                    let mut __map = __serializer.serialize_map(::core::option::Option::None)?;
                    #(#consts)*
                    #(#fields)*
                    #oneof
                    #extras
                    __map.end()
                }
            }
        }
    }

    /// The `Deserialize` impl of an object: fields, const members and at most one oneof group.
    ///
    /// A struct passes the group it stores in a field as `oneof`; a pure oneof type (or a oneof
    /// enum decoded on its own) *is* the group, passed as `pure_group` with the enum's name.
    fn emit_visitor(
        &self,
        type_name: &str,
        target: TokenStream,
        fields: &[Field],
        consts: &[ConstField],
        oneof: Option<&OneOfField>,
        pure_group: Option<(&OneOfGroup, &str)>,
    ) -> TokenStream {
        let rt = &self.opts.runtime;
        let extras = self.opts.preserve_unknown && pure_group.is_none();
        let group: Option<(&OneOfGroup, Ident)> = match (oneof, pure_group) {
            (Some(o), _) => Some((&o.group, ident(&o.enum_name))),
            (None, Some((g, enum_name))) => Some((g, ident(enum_name))),
            (None, None) => None,
        };
        // A oneof remembers the first member it does not know (in wire order): when no known
        // member is set, that is the member a newer writer used, kept as `Unknown`.
        let track_first = group.is_some();
        // A pure oneof with preservation on keeps that first member's value (it has no map of
        // unknown fields to keep it in otherwise).
        let keep_first_value = self.opts.preserve_unknown && pure_group.is_some();

        // Key identification: every wire name (and alias) maps to a numbered key.
        let mut key_variants = Vec::new();
        let mut key_arms = Vec::new();
        let mut add_key = |id: Ident, names: Vec<&String>| {
            key_arms.push(quote!(#(#names)|* => __Key::#id,));
            key_variants.push(id);
        };
        for (i, f) in fields.iter().enumerate() {
            add_key(
                format_ident!("F{}", i),
                std::iter::once(&f.json_name)
                    .chain(f.alias.iter())
                    .collect(),
            );
        }
        for (i, c) in consts.iter().enumerate() {
            add_key(
                format_ident!("C{}", i),
                std::iter::once(&c.json_name)
                    .chain(c.alias.iter())
                    .collect(),
            );
        }
        if let Some((g, _)) = &group {
            for (i, m) in g.members.iter().enumerate() {
                add_key(
                    format_ident!("M{}", i),
                    std::iter::once(&m.json_name)
                        .chain(m.alias.iter())
                        .collect(),
                );
            }
        }
        let (unknown_variant, unknown_arm) = if extras || track_first {
            (
                quote!(Unknown(::std::string::String),),
                quote!(_ => __Key::Unknown(::std::borrow::ToOwned::to_owned(__value)),),
            )
        } else {
            (quote!(Ignore,), quote!(_ => __Key::Ignore,))
        };

        // Slots, one per field and const.
        let field_slots = fields.iter().enumerate().map(|(i, f)| {
            let slot = format_ident!("__f{}", i);
            let ty = self.rust_type(&f.ty);
            quote!(let mut #slot: ::core::option::Option<#ty> = ::core::option::Option::None;)
        });
        let group_slot = group.as_ref().map(|(_, ename)| {
            quote!(let mut __oneof: ::core::option::Option<#ename> = ::core::option::Option::None;)
        });
        let extras_slot =
            (extras || keep_first_value).then(|| quote!(let mut __unknown = ::serde_json::Map::<::std::string::String, ::serde_json::Value>::new();));
        let first_slot = track_first.then(
            || quote!(let mut __first_unknown: ::core::option::Option<::std::string::String> = ::core::option::Option::None;),
        );

        // One arm per key.
        let mut arms = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            let key = format_ident!("F{}", i);
            let slot = format_ident!("__f{}", i);
            let read = self.read_value(&f.ty);
            arms.push(quote!(__Key::#key => { #slot = #read; }));
        }
        for (i, c) in consts.iter().enumerate() {
            let key = format_ident!("C{}", i);
            let json_name = &c.json_name;
            // Written as the mismatch (`!=`), not `!(.. == ..)`, which clippy's `nonminimal_bool`
            // flags in the crate that includes the generated code.
            let mismatch = match &c.value {
                Literal::String(s) => quote!(__v.as_str() != ::core::option::Option::Some(#s)),
                Literal::Bool(b) => quote!(__v.as_bool() != ::core::option::Option::Some(#b)),
                Literal::Integer(n) => quote!(__v.as_i64() != ::core::option::Option::Some(#n)),
                Literal::Number(n) => quote!(__v.as_f64() != ::core::option::Option::Some(#n)),
            };
            let expected = serde_json::to_string(&literal_json(&c.value)).unwrap_or_default();
            let msg = format!("{type_name}: `{json_name}` must be {expected}, found {{}}");
            arms.push(quote! {
                __Key::#key => {
                    let __v: ::serde_json::Value = __map.next_value()?;
                    // `null` means absent, as for every member.
                    if !__v.is_null() && #mismatch {
                        return ::core::result::Result::Err(<__A::Error as ::serde::de::Error>::custom(::core::format_args!(#msg, __v)));
                    }
                }
            });
        }
        if let Some((g, ename)) = &group {
            for (i, m) in g.members.iter().enumerate() {
                let key = format_ident!("M{}", i);
                let variant = ident(&m.variant);
                let read = self.read_value(&m.ty);
                arms.push(quote! {
                    __Key::#key => {
                        if let ::core::option::Option::Some(__v) = #read {
                            __set_oneof::<__A::Error>(&mut __oneof, #ename::#variant(__v))?;
                        }
                    }
                });
            }
        }
        let note_first = track_first.then(|| {
            quote! {
                if __first_unknown.is_none() {
                    __first_unknown = ::core::option::Option::Some(::std::clone::Clone::clone(&__name));
                }
            }
        });
        if extras {
            arms.push(quote! {
                __Key::Unknown(__name) => {
                    #note_first
                    let __v: ::serde_json::Value = __map.next_value()?;
                    __unknown.insert(__name, __v);
                }
            });
        } else if keep_first_value {
            arms.push(quote! {
                __Key::Unknown(__name) => {
                    if __first_unknown.is_none() {
                        let __v: ::serde_json::Value = __map.next_value()?;
                        __unknown.insert(::std::clone::Clone::clone(&__name), __v);
                        __first_unknown = ::core::option::Option::Some(__name);
                    } else {
                        let _ = __map.next_value::<::serde::de::IgnoredAny>()?;
                    }
                }
            });
        } else if track_first {
            arms.push(quote! {
                __Key::Unknown(__name) => {
                    #note_first
                    let _ = __map.next_value::<::serde::de::IgnoredAny>()?;
                }
            });
        } else {
            arms.push(quote! {
                __Key::Ignore => {
                    let _ = __map.next_value::<::serde::de::IgnoredAny>()?;
                }
            });
        }

        // The oneof helper: two different known members is an error; the same one twice, last wins.
        let set_oneof = group.as_ref().map(|(g, ename)| {
            let names: Vec<String> = g.members.iter().map(|m| format!("`{}`", m.json_name)).collect();
            let msg = format!("{type_name}: at most one of {} may be set, found `{{}}` and `{{}}`", names.join(", "));
            quote! {
                fn __set_oneof<__E: ::serde::de::Error>(__slot: &mut ::core::option::Option<#ename>, __new: #ename) -> ::core::result::Result<(), __E> {
                    // One `if let` with a filter, not two nested `if`s: clippy's `collapsible_if`
                    // wants let chains in edition 2024, which edition 2021 cannot compile.
                    if let ::core::option::Option::Some(__old) = __slot.as_ref().filter(|__old| __old.member_name() != __new.member_name()) {
                        return ::core::result::Result::Err(__E::custom(::core::format_args!(
                            #msg,
                            __old.member_name().unwrap_or_default(),
                            __new.member_name().unwrap_or_default()
                        )));
                    }
                    *__slot = ::core::option::Option::Some(__new);
                    ::core::result::Result::Ok(())
                }
            }
        });

        // Building the value. A const member (v0.3's `kind`) may be absent: where it sits, the
        // position already says what the object is (the official SDK defaults it too); a wrong
        // value is still an error, checked as it is read.
        let group_value = group.as_ref().map(|(_, ename)| {
            let preserved = if extras || keep_first_value {
                quote!(::core::option::Option::Some(&mut __unknown))
            } else {
                quote!(::core::option::Option::None)
            };
            quote! {
                let __oneof = match __oneof {
                    ::core::option::Option::Some(__v) => __v,
                    ::core::option::Option::None => #ename::Unknown(#rt::UnknownMember::from_first(__first_unknown, #preserved)),
                };
            }
        });
        let build = if pure_group.is_some() {
            quote!(::core::result::Result::Ok(__oneof))
        } else {
            let inits = fields.iter().enumerate().map(|(i, f)| {
                let fname = ident(&f.rust_name);
                let slot = format_ident!("__f{}", i);
                let value = match &f.presence {
                    Presence::Required => quote!(#slot.unwrap_or_default()),
                    Presence::Optional if self.is_collection(&f.ty) => {
                        quote!(#slot.unwrap_or_default())
                    }
                    Presence::Optional => quote!(#slot),
                    Presence::Defaulted(lit) => {
                        let v = Self::default_value(lit);
                        quote!(#slot.unwrap_or_else(|| #v))
                    }
                };
                quote!(#fname: #value,)
            });
            let oneof_init = oneof.map(|o| {
                let fname = ident(&o.rust_name);
                quote!(#fname: __oneof,)
            });
            let extras_init = extras.then(|| {
                let fname = ident(UNKNOWN_FIELDS);
                quote!(#fname: __unknown,)
            });
            quote!(::core::result::Result::Ok(#target { #(#inits)* #oneof_init #extras_init }))
        };

        // A message with no members at all (`google.protobuf.Empty`, the result of calls that return
        // nothing) also reads from `null`: the official SDK's server answers a delete with
        // `"result": null`, and its client takes that and `{}` alike.
        let void = fields.is_empty() && consts.is_empty() && group.is_none();
        let (visit_unit, entry) = if void {
            let extras_init = extras.then(|| {
                let fname = ident(UNKNOWN_FIELDS);
                quote!(#fname: ::serde_json::Map::new(),)
            });
            (
                quote! {
                    fn visit_unit<__E: ::serde::de::Error>(self) -> ::core::result::Result<Self::Value, __E> {
                        ::core::result::Result::Ok(#target { #extras_init })
                    }
                },
                quote!(deserialize_any),
            )
        } else {
            (TokenStream::new(), quote!(deserialize_map))
        };
        let key_match = if key_arms.is_empty() && !extras {
            quote!(let _ = __value; ::core::result::Result::Ok(__Key::Ignore))
        } else {
            quote!(::core::result::Result::Ok(match __value { #(#key_arms)* #unknown_arm }))
        };
        let expecting = format!("{type_name} as a JSON object");
        let dead_code = key_variants.is_empty().then(|| quote!(#[allow(dead_code)]));
        quote! {
            impl<'de> ::serde::Deserialize<'de> for #target {
                fn deserialize<__D: ::serde::Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                    #dead_code
                    enum __Key { #(#key_variants,)* #unknown_variant }
                    struct __KeyVisitor;
                    impl ::serde::de::Visitor<'_> for __KeyVisitor {
                        type Value = __Key;
                        fn expecting(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            __f.write_str("a member name")
                        }
                        fn visit_str<__E: ::serde::de::Error>(self, __value: &str) -> ::core::result::Result<__Key, __E> {
                            #key_match
                        }
                    }
                    impl<'de> ::serde::Deserialize<'de> for __Key {
                        fn deserialize<__D: ::serde::Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                            __deserializer.deserialize_identifier(__KeyVisitor)
                        }
                    }
                    #set_oneof
                    struct __Visitor;
                    impl<'de> ::serde::de::Visitor<'de> for __Visitor {
                        type Value = #target;
                        fn expecting(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            __f.write_str(#expecting)
                        }
                        #visit_unit
                        fn visit_map<__A: ::serde::de::MapAccess<'de>>(self, mut __map: __A) -> ::core::result::Result<Self::Value, __A::Error> {
                            #(#field_slots)*
                            #group_slot
                            #extras_slot
                            #first_slot
                            while let ::core::option::Option::Some(__key) = __map.next_key::<__Key>()? {
                                match __key { #(#arms)* }
                            }
                            #group_value
                            #build
                        }
                    }
                    __deserializer.#entry(__Visitor)
                }
            }
        }
    }

    /// An expression reading the next map value as `Option<RustType>`: JSON null is `None`
    /// (ProtoJSON: null means the field is absent), except for `Value`, where null is a value.
    fn read_value(&self, ty: &TypeRef) -> TokenStream {
        if matches!(self.resolve(ty), TypeRef::Any) {
            return quote!(::core::option::Option::Some(
                __map.next_value::<::serde_json::Value>()?
            ));
        }
        let wire = self.wire(ty);
        let wire_ty = &wire.ty;
        match &wire.convert {
            None => quote!(__map.next_value::<::core::option::Option<#wire_ty>>()?),
            Some(_) => {
                let conv = wire.apply(quote!(__w));
                quote!(__map.next_value::<::core::option::Option<#wire_ty>>()?.map(|__w| #conv))
            }
        }
    }

    // ----- oneofs ------------------------------------------------------------------------------

    /// The rustdoc of the `Unknown` variant of a oneof or tagged union.
    fn unknown_variant_doc(&self, what: &str) -> TokenStream {
        let path = self.opts.runtime_doc_path();
        doc_attrs(&format!(
            "{what}, and its value when unknown fields are preserved), or none at all: see \
             [`UnknownMember`]({path}::UnknownMember)."
        ))
    }

    /// A type that is nothing but a oneof (`StreamResponse`): a Rust enum.
    fn emit_oneof_type(&self, def: &TypeDef, g: &OneOfGroup) -> TokenStream {
        let mut doc = def.doc.clone().unwrap_or_default();
        let names: Vec<String> = g
            .members
            .iter()
            .map(|m| format!("`{}`", m.json_name))
            .collect();
        if !doc.is_empty() {
            doc.push_str("\n\n");
        }
        doc.push_str(&format!(
            "On the wire: an object with one of {} (the variant's member).",
            names.join(", ")
        ));
        self.emit_oneof_enum(&def.name, &def.name, g, Some(doc))
    }

    /// The Rust enum for a oneof group, with `member_name`, `Serialize` and `Deserialize`.
    fn emit_oneof_enum(
        &self,
        enum_name: &str,
        owner: &str,
        g: &OneOfGroup,
        doc: Option<String>,
    ) -> TokenStream {
        let name = ident(enum_name);
        let rt = &self.opts.runtime;
        let mut doc = doc.unwrap_or_else(|| {
            format!(
                "The `{}` oneof of [`{owner}`]: which one of its members is set.",
                g.name.as_deref().unwrap_or("oneof")
            )
        });
        doc.push_str(
            "\n\nOpen, as protobuf reads it: a member this version does not know, or no member at \
             all, is `Unknown` (the rest of the object is kept); two known members are a decode \
             error.",
        );
        let docs = doc_attrs(&doc);
        let variants = g.members.iter().map(|m| {
            let variant = ident(&m.variant);
            let ty = self.rust_type(&m.ty);
            let mut vdoc = m.doc.clone().unwrap_or_default();
            if !vdoc.is_empty() {
                vdoc.push_str("\n\n");
            }
            vdoc.push_str(&format!("JSON: `{}`", m.json_name));
            if let Some(alias) = &m.alias {
                vdoc.push_str(&format!(" (`{alias}` also accepted)"));
            }
            vdoc.push('.');
            if m.deprecated {
                vdoc.push_str("\n\nDeprecated by the specification.");
            }
            let vdoc = doc_attrs(&vdoc);
            quote! { #vdoc #variant(#ty), }
        });
        let name_arms = g.members.iter().map(|m| {
            let variant = ident(&m.variant);
            let key = &m.json_name;
            quote!(Self::#variant(_) => ::core::option::Option::Some(#key),)
        });
        let ser_arms = g.members.iter().map(|m| {
            let variant = ident(&m.variant);
            let key = &m.json_name;
            let value = self.encoded(&m.ty, quote!(__v));
            quote!(Self::#variant(__v) => __map.serialize_entry(#key, #value)?,)
        });
        let de = self.emit_visitor(owner, quote!(#name), &[], &[], None, Some((g, enum_name)));
        let unknown_doc = self.unknown_variant_doc("A member this version does not know (its name");
        quote! {
            #docs
            #[derive(Clone, Debug, PartialEq)]
            #[allow(clippy::large_enum_variant)]
            pub enum #name {
                #(#variants)*
                #unknown_doc
                Unknown(#rt::UnknownMember),
            }
            impl ::core::default::Default for #name {
                /// No member set.
                fn default() -> Self {
                    Self::Unknown(::core::default::Default::default())
                }
            }
            impl #name {
                /// The JSON member name of the variant that is set: for `Unknown`, the name that
                /// arrived, or `None` when no member did.
                pub fn member_name(&self) -> ::core::option::Option<&str> {
                    match self {
                        #(#name_arms)*
                        Self::Unknown(__u) => __u.name(),
                    }
                }
            }
            impl ::serde::Serialize for #name {
                fn serialize<__S: ::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    use ::serde::ser::SerializeMap as _;
                    let mut __map = __serializer.serialize_map(::core::option::Option::None)?;
                    match self {
                        #(#ser_arms)*
                        Self::Unknown(__u) => __u.serialize_member(&mut __map)?,
                    }
                    __map.end()
                }
            }
            #de
        }
    }

    // ----- tagged unions -----------------------------------------------------------------------

    /// An internally tagged union (`Part` of A2A v0.3): a Rust enum whose variants hold the object
    /// types; the tag member, which each variant's struct writes and checks as a `const`, picks the
    /// variant on decode. A tag that names no variant is `Unknown`; a missing tag is resolved by
    /// shape (the one variant whose required members are present), as the official SDK does.
    fn emit_tagged(&self, def: &TypeDef, t: &TaggedUnion) -> TokenStream {
        let name = ident(&def.name);
        let rt = &self.opts.runtime;
        let type_name = &def.name;
        let tag = &t.tag;
        let values: Vec<&str> = t.variants.iter().map(|v| v.value.as_str()).collect();
        let mut doc = def.doc.clone().unwrap_or_default();
        if !doc.is_empty() {
            doc.push_str("\n\n");
        }
        let listed: Vec<String> = t
            .variants
            .iter()
            .map(|v| format!("`\"{}\"` ([`{}`])", v.value, v.ty))
            .collect();
        doc.push_str(&format!(
            "On the wire: one object whose `{tag}` member names the variant: {}. A `{tag}` that \
             names no variant decodes to `Unknown`. Without `{tag}`, the object is the variant \
             whose required members are all present (the one requiring the most, when several \
             fit); none, or a tie, is a decode error naming the candidates.\n\nDecoding reads \
             the object into a \
             `serde_json::Value` first (the `{tag}` member may come last), then the variant from \
             it.",
            listed.join(", ")
        ));
        let docs = doc_attrs(&doc);
        let variants = t.variants.iter().map(|v| {
            let variant = ident(&v.variant);
            let ty = ident(&v.ty);
            let vdoc = doc_attrs(&format!("`\"{tag}\": \"{}\"`: a [`{}`].", v.value, v.ty));
            quote! { #vdoc #variant(#ty), }
        });
        let value_arms = t.variants.iter().map(|v| {
            let variant = ident(&v.variant);
            let value = &v.value;
            quote!(Self::#variant(_) => ::core::option::Option::Some(#value),)
        });
        let ser_arms = t.variants.iter().map(|v| {
            let variant = ident(&v.variant);
            quote!(Self::#variant(__v) => ::serde::Serialize::serialize(__v, __serializer),)
        });
        let unknown_doc = self.unknown_variant_doc(&format!(
            "An object whose `{tag}` names no variant of this version (that name"
        ));
        let shapes = t.variants.iter().map(|v| {
            let value = &v.value;
            let required = self
                .required_names(&v.ty)
                .into_iter()
                .map(|names| quote!(&[#(#names),*]));
            quote!(#rt::oneof::Shape { tag: #value, required: &[#(#required),*] })
        });
        let keep_value = if self.opts.preserve_unknown {
            quote!(::core::option::Option::Some(::serde_json::Value::Object(
                __object
            )))
        } else {
            quote!(::core::option::Option::None)
        };
        let from_impls = t.variants.iter().map(|v| {
            let variant = ident(&v.variant);
            let ty = ident(&v.ty);
            quote! {
                impl ::core::convert::From<#ty> for #name {
                    fn from(__v: #ty) -> Self {
                        Self::#variant(__v)
                    }
                }
            }
        });
        let index_arms = t.variants.iter().enumerate().map(|(i, v)| {
            let value = &v.value;
            quote!(#value => ::core::option::Option::Some(#i),)
        });
        let last = t.variants.len().saturating_sub(1);
        let de_arms = t.variants.iter().enumerate().map(|(i, v)| {
            let variant = ident(&v.variant);
            let ty = ident(&v.ty);
            let pattern = if i == last { quote!(_) } else { quote!(#i) };
            quote! {
                #pattern => ::serde_json::from_value::<#ty>(::serde_json::Value::Object(__object))
                    .map(Self::#variant)
                    .map_err(<__D::Error as ::serde::de::Error>::custom),
            }
        });
        // The tag's snake_case proto name is accepted too, as for every member of the variant.
        let lookup = match Some(crate::naming::snake_case(tag)).filter(|a| a != tag) {
            Some(alias) => quote!(__object.get(#tag).or_else(|| __object.get(#alias))),
            None => quote!(__object.get(#tag)),
        };
        let not_string = format!("{type_name}: `{tag}` must be a string, found {{}}");
        let not_object = format!("{type_name}: expected a JSON object, found {{}}");
        quote! {
            #docs
            #[derive(Clone, Debug, PartialEq)]
            #[allow(clippy::large_enum_variant)]
            pub enum #name {
                #(#variants)*
                #unknown_doc
                Unknown(#rt::UnknownMember),
            }
            impl ::core::default::Default for #name {
                /// No variant (`Unknown` without a tag).
                fn default() -> Self {
                    Self::Unknown(::core::default::Default::default())
                }
            }
            impl #name {
                /// The JSON name of the member that names the variant.
                pub const TAG: &'static str = #tag;
                /// The tag values, one per variant, in schema order.
                pub const TAG_VALUES: &'static [&'static str] = &[#(#values),*];

                /// The tag value of the variant that is set: for `Unknown`, the value that
                /// arrived, or `None` when there was none.
                pub fn tag_value(&self) -> ::core::option::Option<&str> {
                    match self {
                        #(#value_arms)*
                        Self::Unknown(__u) => __u.name(),
                    }
                }
            }
            #(#from_impls)*
            impl ::serde::Serialize for #name {
                fn serialize<__S: ::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    // Each variant's struct writes the tag itself (it is a `const` member).
                    match self {
                        #(#ser_arms)*
                        Self::Unknown(__u) => __u.serialize_tagged(#tag, __serializer),
                    }
                }
            }
            impl<'de> ::serde::Deserialize<'de> for #name {
                fn deserialize<__D: ::serde::Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                    // The tag may come after the variant's other members, so the object is buffered
                    // as a `serde_json::Value` and the variant decoded from it once the tag is known.
                    // A streaming path (for a tag that comes first) can replace this later.
                    let __object = match <::serde_json::Value as ::serde::Deserialize>::deserialize(__deserializer)? {
                        ::serde_json::Value::Object(__object) => __object,
                        __other => {
                            let __found = match __other {
                                ::serde_json::Value::Null => "null",
                                ::serde_json::Value::Bool(_) => "a boolean",
                                ::serde_json::Value::Number(_) => "a number",
                                ::serde_json::Value::String(_) => "a string",
                                _ => "an array",
                            };
                            return ::core::result::Result::Err(<__D::Error as ::serde::de::Error>::custom(::core::format_args!(#not_object, __found)));
                        }
                    };
                    const __SHAPES: &[#rt::oneof::Shape] = &[#(#shapes),*];
                    let __tag = match #lookup {
                        ::core::option::Option::Some(::serde_json::Value::String(__s)) => ::core::option::Option::Some(::std::clone::Clone::clone(__s)),
                        ::core::option::Option::None | ::core::option::Option::Some(::serde_json::Value::Null) => ::core::option::Option::None,
                        ::core::option::Option::Some(__other) => {
                            return ::core::result::Result::Err(<__D::Error as ::serde::de::Error>::custom(::core::format_args!(#not_string, __other)));
                        }
                    };
                    let __index = match __tag {
                        ::core::option::Option::Some(__name) => {
                            let __known = match __name.as_str() {
                                #(#index_arms)*
                                _ => ::core::option::Option::None,
                            };
                            match __known {
                                ::core::option::Option::Some(__i) => __i,
                                ::core::option::Option::None => {
                                    return ::core::result::Result::Ok(Self::Unknown(#rt::UnknownMember::new(__name, #keep_value)));
                                }
                            }
                        }
                        ::core::option::Option::None => {
                            #rt::oneof::pick_by_shape(#type_name, #tag, __SHAPES, &__object)
                                .map_err(<__D::Error as ::serde::de::Error>::custom)?
                        }
                    };
                    match __index {
                        #(#de_arms)*
                    }
                }
            }
        }
    }

    // ----- enums -------------------------------------------------------------------------------

    fn emit_enum(&self, def: &TypeDef, e: &EnumDef) -> TokenStream {
        let name = ident(&def.name);
        let docs = doc_attrs(def.doc.as_deref().unwrap_or(""));
        let variants = e.values.iter().enumerate().map(|(i, v)| {
            let variant = ident(&v.variant);
            let vdoc = format!(" `{}` (number {}).", v.wire, v.number);
            let default = (i == 0).then(|| quote!(#[default]));
            quote! { #[doc = #vdoc] #default #variant, }
        });
        let known = e.values.iter().map(|v| {
            let variant = ident(&v.variant);
            quote!(Self::#variant)
        });
        let as_str = e.values.iter().map(|v| {
            let variant = ident(&v.variant);
            let wire = &v.wire;
            quote!(Self::#variant => #wire,)
        });
        let number = e.values.iter().map(|v| {
            let variant = ident(&v.variant);
            let n = v.number;
            quote!(Self::#variant => ::core::option::Option::Some(#n),)
        });
        let from_number = e.values.iter().map(|v| {
            let variant = ident(&v.variant);
            let n = i64::from(v.number);
            quote!(#n => Self::#variant,)
        });
        let from_wire = e.values.iter().map(|v| {
            let variant = ident(&v.variant);
            let wire = &v.wire;
            quote!(#wire => ::core::option::Option::Some(Self::#variant),)
        });
        let expecting = format!("a {} name or number", def.name);
        quote! {
            #docs
            ///
            /// Open: a value this schema does not name decodes to `Unrecognized` and encodes back unchanged.
            #[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
            pub enum #name {
                #(#variants)*
                /// A value this schema does not name, as it arrived: the name, or the decimal digits of a number.
                Unrecognized(::std::string::String),
            }
            impl #name {
                /// Every value the schema names, in number order.
                pub const KNOWN: &'static [Self] = &[#(#known),*];

                /// The wire name (for `Unrecognized`, the value as it arrived).
                pub fn as_str(&self) -> &str {
                    match self {
                        #(#as_str)*
                        Self::Unrecognized(__s) => __s,
                    }
                }

                /// The ProtoJSON number, for the values the schema names.
                pub fn number(&self) -> ::core::option::Option<i32> {
                    match self {
                        #(#number)*
                        Self::Unrecognized(_) => ::core::option::Option::None,
                    }
                }

                /// The value with this ProtoJSON number (`Unrecognized` for an unknown number).
                pub fn from_number(number: i64) -> Self {
                    match number {
                        #(#from_number)*
                        _ => Self::Unrecognized(::std::string::ToString::to_string(&number)),
                    }
                }

                /// The value with this wire name, if the schema names it.
                pub fn from_known_name(name: &str) -> ::core::option::Option<Self> {
                    match name {
                        #(#from_wire)*
                        _ => ::core::option::Option::None,
                    }
                }

                /// The value for a wire name (`Unrecognized` for a name the schema does not know).
                pub fn from_name(name: &str) -> Self {
                    Self::from_known_name(name).unwrap_or_else(|| Self::Unrecognized(::std::borrow::ToOwned::to_owned(name)))
                }
            }
            impl ::core::fmt::Display for #name {
                fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    __f.write_str(self.as_str())
                }
            }
            impl ::serde::Serialize for #name {
                fn serialize<__S: ::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    // An unknown value that arrived as a number goes back as that number. A name
                    // that only looks like one (the string "1", "-0" or "01", from an odd peer)
                    // stays a string: as a number it would read back as another value.
                    // (No nested `if`s: see `collapsible_if` at the oneof helper.)
                    let __number = match self {
                        Self::Unrecognized(__s) => __s.parse::<i64>().ok().filter(|__n| {
                            matches!(Self::from_number(*__n), Self::Unrecognized(__canonical) if __canonical == *__s)
                        }),
                        _ => ::core::option::Option::None,
                    };
                    if let ::core::option::Option::Some(__n) = __number {
                        return __serializer.serialize_i64(__n);
                    }
                    __serializer.serialize_str(self.as_str())
                }
            }
            impl<'de> ::serde::Deserialize<'de> for #name {
                fn deserialize<__D: ::serde::Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                    struct __Visitor;
                    impl ::serde::de::Visitor<'_> for __Visitor {
                        type Value = #name;
                        fn expecting(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            __f.write_str(#expecting)
                        }
                        fn visit_str<__E: ::serde::de::Error>(self, __v: &str) -> ::core::result::Result<#name, __E> {
                            ::core::result::Result::Ok(#name::from_name(__v))
                        }
                        fn visit_string<__E: ::serde::de::Error>(self, __v: ::std::string::String) -> ::core::result::Result<#name, __E> {
                            ::core::result::Result::Ok(#name::from_known_name(&__v).unwrap_or(#name::Unrecognized(__v)))
                        }
                        fn visit_i64<__E: ::serde::de::Error>(self, __v: i64) -> ::core::result::Result<#name, __E> {
                            ::core::result::Result::Ok(#name::from_number(__v))
                        }
                        fn visit_u64<__E: ::serde::de::Error>(self, __v: u64) -> ::core::result::Result<#name, __E> {
                            match i64::try_from(__v) {
                                ::core::result::Result::Ok(__n) => ::core::result::Result::Ok(#name::from_number(__n)),
                                ::core::result::Result::Err(_) => ::core::result::Result::Err(__E::invalid_value(::serde::de::Unexpected::Unsigned(__v), &self)),
                            }
                        }
                    }
                    __deserializer.deserialize_any(__Visitor)
                }
            }
        }
    }
}

fn literal_json(lit: &Literal) -> serde_json::Value {
    match lit {
        Literal::String(s) => serde_json::Value::from(s.as_str()),
        Literal::Integer(i) => serde_json::Value::from(*i),
        Literal::Number(n) => serde_json::Value::from(*n),
        Literal::Bool(b) => serde_json::Value::from(*b),
    }
}
