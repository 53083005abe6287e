//! The expansion: an `AgentError` impl and one const check per code and per reason.
//!
//! Everything is reached through `<crate>::__derive` (the module generated from the error table),
//! `::core` and `::std`, so the expansion needs no other name in the user's scope.

use crate::parse::{code_advice, reason_advice, Code, Input, Reason, Variant};
use a2a_facts::type_url;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;

pub fn expand(input: &Input) -> TokenStream {
    let Input {
        ident,
        derive_mod: d,
        variants,
    } = input;
    let domain = ident.unraw().to_string();
    let type_url = |v: &Variant| type_url::fields(&domain, &v.name);

    let rows = variants.iter().map(|v| {
        let Variant {
            name,
            message,
            grpc,
            http,
            reason,
            doc,
            ..
        } = v;
        let code = v.code.value;
        let reason = &reason.value;
        quote! {
            #d::ErrorRow {
                name: #name,
                spec_name: #name,
                code: #code,
                grpc: #grpc,
                http: #http,
                message: #message,
                reason: ::core::option::Option::Some(#reason),
                standard: false,
                doc: #doc,
            }
        }
    });

    let code_arms = variants.iter().map(|v| {
        let (variant, code) = (&v.ident, v.code.value);
        quote!(Self::#variant { .. } => #code,)
    });

    let detail_arms = variants.iter().map(|v| {
        let variant = &v.ident;
        match &v.fields {
            Some(fields) if !fields.is_empty() => {
                let url = type_url(v);
                let idents = fields.iter().map(|f| &f.ident);
                let bindings: Vec<_> = (0..fields.len()).map(|i| format_ident!("__f{i}")).collect();
                let members = fields.iter().map(|f| &f.member);
                quote! {
                    Self::#variant { #(#idents: #bindings),* } => ::core::option::Option::Some(
                        #d::ErrorDetail::new(#url)
                            #(.with(#members, #d::field_value(#bindings)))*
                    ),
                }
            }
            _ => quote!(Self::#variant { .. } => ::core::option::Option::None,),
        }
    });

    let uses_data = variants
        .iter()
        .any(|v| v.fields.as_ref().is_some_and(|f| !f.is_empty()));
    let from_arms = variants.iter().map(|v| {
        let (variant, code) = (&v.ident, v.code.value);
        match &v.fields {
            None => quote!(#code => ::core::option::Option::Some(Self::#variant),),
            Some(fields) if fields.is_empty() => {
                quote!(#code => ::core::option::Option::Some(Self::#variant {}),)
            }
            Some(fields) => {
                let url = type_url(v);
                let idents = fields.iter().map(|f| &f.ident);
                let members = fields.iter().map(|f| &f.member);
                quote! {
                    #code => {
                        let __fields = #d::find_fields(__data, #url)?;
                        ::core::option::Option::Some(Self::#variant {
                            #(#idents: #d::field(__fields, #members)?,)*
                        })
                    }
                }
            }
        }
    });

    let (code_body, detail_body) = if variants.is_empty() {
        (quote!(match *self {}), quote!(match *self {}))
    } else {
        (
            quote!(match *self { #(#code_arms)* }),
            quote!(match self { #(#detail_arms)* }),
        )
    };
    let (code_param, data_param) = match (variants.is_empty(), uses_data) {
        (true, _) => (quote!(_), quote!(_)),
        (false, false) => (quote!(__code), quote!(_)),
        (false, true) => (quote!(__code), quote!(__data)),
    };
    let from_body = if variants.is_empty() {
        quote!(::core::option::Option::None)
    } else {
        quote! {
            match __code {
                #(#from_arms)*
                _ => ::core::option::Option::None,
            }
        }
    };

    let checks = code_checks(d, variants.iter().map(|v| &v.code));
    let reason_checks = reason_checks(d, variants.iter().map(|v| &v.reason));

    quote! {
        #[automatically_derived]
        impl #d::AgentError for #ident {
            const DOMAIN: &'static ::core::primitive::str = #domain;

            const ROWS: &'static [#d::ErrorRow] = &[#(#rows),*];

            fn code(&self) -> ::core::primitive::i64 {
                #code_body
            }

            fn fields_detail(&self) -> ::core::option::Option<#d::ErrorDetail> {
                #detail_body
            }

            fn from_code_and_data(
                #code_param: ::core::primitive::i64,
                #data_param: ::core::option::Option<&#d::Value>,
            ) -> ::core::option::Option<Self> {
                #from_body
            }
        }

        #checks
        #reason_checks
    }
}

/// One const item per code that fails to evaluate when the generated table takes the code, with
/// a message naming the row (`TakenMessage`, built at compile time from `ERROR_TABLE`). Emitted
/// beside the other errors too, so that every problem shows in one compile.
pub fn code_checks<'a>(d: &TokenStream, codes: impl IntoIterator<Item = &'a Code>) -> TokenStream {
    let advice = code_advice();
    codes
        .into_iter()
        .map(|code| {
            let value = code.value;
            // The macro call's span runs from its path to its parentheses: spanning the path on
            // the first token of the code and the parentheses on the last makes the failed
            // evaluation point at the code as written (`-32001`).
            let path = quote_spanned!(code.first=> ::core::panic!);
            let args = quote_spanned!(code.last=> ("{}", __message.as_str()));
            quote_spanned! {code.last=>
                const _: () = if let ::core::option::Option::Some(__message) =
                    #d::TakenMessage::new(&#d::ERROR_TABLE, #d::is_code_taken(#value), #value, #advice)
                {
                    #path #args
                };
            }
        })
        .collect()
}

/// One const item per reason that fails to evaluate when a row of the generated table has the
/// reason, naming the row (`TakenMessage::for_reason` over `ERROR_TABLE`), on the reason's string
/// literal, or on the variant's name for a default reason. Emitted beside the other errors too.
pub fn reason_checks<'a>(
    d: &TokenStream,
    reasons: impl IntoIterator<Item = &'a Reason>,
) -> TokenStream {
    reasons
        .into_iter()
        .map(|reason| {
            let value = &reason.value;
            let advice = reason_advice(reason.written);
            let path = quote_spanned!(reason.span=> ::core::panic!);
            let args = quote_spanned!(reason.span=> ("{}", __message.as_str()));
            quote_spanned! {reason.span=>
                const _: () = if let ::core::option::Option::Some(__message) =
                    #d::TakenMessage::for_reason(&#d::ERROR_TABLE, #value, #advice)
                {
                    #path #args
                };
            }
        })
        .collect()
}
