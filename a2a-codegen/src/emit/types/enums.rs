//! Open enums.

use super::*;

impl Cx<'_> {
    pub(super) fn emit_enum(&self, def: &TypeDef, e: &EnumDef) -> TokenStream {
        let name = ident(&def.name);
        let rt = &self.opts.runtime;
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
            impl #rt::__private::OpenEnum for #name {
                const EXPECTING: &'static str = #expecting;
                fn from_number(number: i64) -> Self {
                    Self::from_number(number)
                }
                fn from_known_name(name: &str) -> ::core::option::Option<Self> {
                    Self::from_known_name(name)
                }
                fn unrecognized(raw: ::std::string::String) -> Self {
                    Self::Unrecognized(raw)
                }
                fn as_str(&self) -> &str {
                    self.as_str()
                }
                fn is_unrecognized(&self) -> bool {
                    matches!(self, Self::Unrecognized(_))
                }
            }
            impl ::serde::Serialize for #name {
                fn serialize<__S: ::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    #rt::__private::serialize_open_enum(self, __serializer)
                }
            }
            impl<'de> ::serde::Deserialize<'de> for #name {
                fn deserialize<__D: ::serde::Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                    #rt::__private::open_enum(__deserializer)
                }
            }
        }
    }
}
