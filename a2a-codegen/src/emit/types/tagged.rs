//! Internally tagged unions (A2A v0.3's `kind`).

use super::*;

impl Cx<'_> {
    /// An internally tagged union (`Part` of A2A v0.3): a Rust enum whose variants hold the object
    /// types; the tag member, which each variant's struct writes and checks as a `const`, picks the
    /// variant on decode. A tag that names no variant is `Unknown`; a missing tag is resolved by
    /// shape (the one variant whose required members are present), as the official SDK does.
    pub(super) fn emit_tagged(&self, def: &TypeDef, t: &TaggedUnion) -> TokenStream {
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
            quote!(#rt::__private::Shape { tag: #value, required: &[#(#required),*] })
        });
        let keep_unknown = self.opts.preserve_unknown;
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
        let last = t.variants.len().saturating_sub(1);
        let de_arms = t.variants.iter().enumerate().map(|(i, v)| {
            let variant = ident(&v.variant);
            let index = if i == last {
                quote!(_)
            } else {
                let i = proc_macro2::Literal::usize_unsuffixed(i);
                quote!(#i)
            };
            quote!(#rt::__private::Tagged::Known(#index, __o) => #rt::__private::variant(__o).map(Self::#variant),)
        });
        // The tag's snake_case proto name is accepted too, as for every member of the variant.
        let tag_alias = match Some(crate::naming::snake_case(tag)).filter(|a| a != tag) {
            Some(alias) => quote!(::core::option::Option::Some(#alias)),
            None => quote!(::core::option::Option::None),
        };
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
                    const __UNION: #rt::__private::Union = #rt::__private::Union {
                        name: #type_name,
                        tag: #tag,
                        tag_alias: #tag_alias,
                        shapes: &[#(#shapes),*],
                        keep_unknown: #keep_unknown,
                    };
                    match #rt::__private::read_tagged(__deserializer, &__UNION)? {
                        #(#de_arms)*
                        #rt::__private::Tagged::Unknown(__u) => ::core::result::Result::Ok(Self::Unknown(__u)),
                    }
                }
            }
        }
    }
}
