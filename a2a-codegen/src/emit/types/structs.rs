//! Structs: the type, its `Default` and its `Serialize` (its `Deserialize` is [`super::visitor`]'s).

use super::*;

impl Cx<'_> {
    pub(super) fn emit_struct(&self, def: &TypeDef, s: &StructDef) -> TokenStream {
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
            let rt = &self.opts.runtime;
            let protobuf = self.unknown_protobuf().map(|(gate, pname)| {
                quote! {
                    #[doc = " Protobuf fields this schema does not number, kept as they arrived and written back on encode."]
                    #gate
                    pub #pname: #rt::protobuf::UnknownFields,
                }
            });
            quote! {
                #[doc = " Members this schema does not name, kept as they arrived and written back on encode."]
                pub #fname: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
                #protobuf
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

    pub(super) fn literal_tokens(lit: &Literal) -> TokenStream {
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
    pub(super) fn default_value(lit: &Literal) -> TokenStream {
        let tokens = Self::literal_tokens(lit);
        match lit {
            Literal::String(_) => quote!(::std::string::String::from(#tokens)),
            _ => tokens,
        }
    }

    pub(super) fn emit_manual_default(&self, name: &Ident, s: &StructDef) -> TokenStream {
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
            let protobuf = self
                .unknown_protobuf()
                .map(|(gate, pname)| quote!(#gate #pname: ::core::default::Default::default(),));
            quote!(#fname: ::serde_json::Map::new(), #protobuf)
        });
        quote! {
            impl ::core::default::Default for #name {
                fn default() -> Self {
                    Self { #(#inits)* #oneof #extras }
                }
            }
        }
    }

    pub(super) fn emit_struct_serialize(&self, name: &Ident, s: &StructDef) -> TokenStream {
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
}
