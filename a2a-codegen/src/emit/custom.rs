//! Emission of a user's own error table: one enum, a unit variant per row, implementing the
//! runtime's `AgentError` with the same wire mapping as `#[derive(AgentError)]` (the rows carry no
//! fields, so their `data` is the `ErrorInfo` alone). The file reaches only the runtime, so it
//! can be included on its own, beside or away from the standard module.

use super::{doc_attrs, EmitOptions};
use crate::ir::CustomErrors;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

/// Emits `custom_errors.rs`; `label` names the table in the enum's docs.
pub fn emit_custom_errors(table: &CustomErrors, label: &str, opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let enum_name = Ident::new(&table.enum_name, Span::call_site());
    let domain = &table.enum_name;
    let names: Vec<Ident> = table
        .rows
        .iter()
        .map(|e| Ident::new(&e.name, Span::call_site()))
        .collect();
    let codes: Vec<Literal> = table
        .rows
        .iter()
        .map(|e| Literal::i64_unsuffixed(e.code))
        .collect();
    let variants = table.rows.iter().zip(&names).map(|(e, name)| {
        let docs = doc_attrs(&format!(
            "{}\n\nJSON-RPC `{}`, gRPC `{}`, HTTP {}; default message \"{}\".",
            e.doc, e.code, e.grpc, e.http, e.message
        ));
        quote! { #docs #name, }
    });
    // Custom rows always have a reason: lowering fills in the name in UPPER_SNAKE_CASE.
    let rows = table.rows.iter().map(|e| super::errors::error_row(e, rt));
    let enum_doc = format!(
        " The agent's own errors, generated from `{label}`: one variant per row. Send one with \
         `A2aError::from_custom`; decode replies with `Decoder::new().custom_errors::<{}>().decode::<T>`.",
        table.enum_name
    );

    quote! {
        #[doc = #enum_doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum #enum_name {
            #(#variants)*
        }

        impl #rt::custom::AgentError for #enum_name {
            const DOMAIN: &'static str = #domain;
            const ROWS: &'static [#rt::ErrorRow] = &[#(#rows),*];

            fn code(&self) -> i64 {
                match self { #(Self::#names => #codes,)* }
            }

            fn fields_detail(&self) -> ::core::option::Option<#rt::ErrorDetail> {
                ::core::option::Option::None
            }

            fn from_code_and_data(
                code: i64,
                _data: ::core::option::Option<&::serde_json::Value>,
            ) -> ::core::option::Option<Self> {
                match code {
                    #(#codes => ::core::option::Option::Some(Self::#names),)*
                    _ => ::core::option::Option::None,
                }
            }
        }

        impl ::core::fmt::Display for #enum_name {
            fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                use #rt::custom::AgentError as _;
                let __row = self.row();
                write!(__f, "{} ({}): {}", __row.name, __row.code, __row.message)
            }
        }

        impl ::std::error::Error for #enum_name {}
    }
}
