//! Oneof enums: the type, `member_name` and `Serialize`.

use super::*;

impl Cx<'_> {
    /// The rustdoc of the `Unknown` variant of a oneof or tagged union.
    pub(super) fn unknown_variant_doc(&self, what: &str) -> TokenStream {
        let path = self.opts.runtime_doc_path();
        doc_attrs(&format!(
            "{what}, and its value when unknown fields are preserved), or none at all: see \
             [`UnknownMember`]({path}::UnknownMember)."
        ))
    }

    /// A type that is nothing but a oneof (`StreamResponse`): a Rust enum.
    pub(super) fn emit_oneof_type(&self, def: &TypeDef, g: &OneOfGroup) -> TokenStream {
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
    pub(super) fn emit_oneof_enum(
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
}
