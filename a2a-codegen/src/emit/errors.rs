//! Emission of the error table: the error enum (one variant per row, plus a catch-all), the table
//! itself as a constant, the `const fn` that says whether a code is taken, and the typed reply
//! decoder built on the runtime's envelope.

use super::doc_attrs;
use super::EmitOptions;
use crate::facts::RESERVED;
use crate::ir::{ErrorDef, ErrorKind};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

/// Message used when an agent sends a code no row names and no message.
const UNKNOWN_MESSAGE: &str = a2a_facts::custom::UNLISTED_MESSAGE;

/// One `ErrorRow` constant of a table row (the standard table's, or a custom table's).
pub(crate) fn error_row(e: &ErrorDef, rt: &TokenStream) -> TokenStream {
    let (name, spec_name, code, grpc, http, message, doc) = (
        &e.name,
        &e.spec_name,
        Literal::i64_unsuffixed(e.code),
        &e.grpc,
        e.http,
        &e.message,
        &e.doc,
    );
    let reason = match &e.reason {
        Some(r) => quote!(::core::option::Option::Some(#r)),
        None => quote!(::core::option::Option::None),
    };
    let standard = e.kind == ErrorKind::JsonRpc;
    quote! {
        #rt::ErrorRow {
            name: #name, spec_name: #spec_name, code: #code, grpc: #grpc, http: #http,
            message: #message, reason: #reason, standard: #standard, doc: #doc,
        }
    }
}

/// Emits `errors.rs` for the table.
pub fn emit_errors(errors: &[ErrorDef], opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let names: Vec<Ident> = errors
        .iter()
        .map(|e| Ident::new(&e.name, Span::call_site()))
        .collect();
    let codes: Vec<Literal> = errors
        .iter()
        .map(|e| Literal::i64_unsuffixed(e.code))
        .collect();
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    let indexes: Vec<Literal> = (0..errors.len()).map(Literal::usize_unsuffixed).collect();

    let variants = errors.iter().zip(&names).map(|(e, name)| {
        let docs = doc_attrs(&format!(
            "{}\n\nJSON-RPC `{}`, gRPC `{}`, HTTP {}; spec name `{}`; default message \"{}\".",
            e.doc, e.code, e.grpc, e.http, e.spec_name, e.message
        ));
        quote! {
            #docs
            #name {
                /// The message the agent sent, or the table's default when it sent none.
                message: ::std::string::String,
                /// The `data` member as sent (v1 agents send an array of `@type` objects).
                data: ::core::option::Option<::serde_json::Value>,
            },
        }
    });
    let rows = errors.iter().map(|e| error_row(e, rt));
    let n_rows = errors.len();
    let constructors = errors.iter().zip(&codes).map(|(e, code)| {
        let f = Ident::new(&constructor_name(&e.name), Span::call_site());
        let info = match &e.reason {
            Some(reason) => format!(", and its `google.rpc.ErrorInfo` (reason `{reason}`) as `data`, on both bindings alike"),
            None => String::new(),
        };
        let doc = format!(
            " `{}` ({}) with the table's message \"{}\"{info}. `with_message` and `with_info` adjust it.",
            e.name, e.code, e.message
        );
        quote! {
            #[doc = #doc]
            pub fn #f() -> Self {
                #rt::__private::standard_error(#code)
            }
        }
    });
    let (low, high) = (
        Literal::i64_unsuffixed(*RESERVED.start()),
        Literal::i64_unsuffixed(*RESERVED.end()),
    );
    let taken_doc = format!(
        " Whether `code` is taken: used by a row of the error table, or inside the JSON-RPC reserved block \
         {}..={} (which holds the five standard codes). Custom agent errors must use another code.",
        RESERVED.start(),
        RESERVED.end()
    );

    quote! {
        /// An error an agent answered with: one variant per row of the error table, matched by
        /// code, and [`A2aError::Other`] for codes no row names. Code, message and data are kept.
        ///
        /// The table may grow with the specification, so the enum is `#[non_exhaustive]`.
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum A2aError {
            #(#variants)*
            /// A code that no row of the error table names.
            Other {
                /// The code as sent.
                code: i64,
                /// The message as sent (`"Unknown error"` when the agent sent none).
                message: ::std::string::String,
                /// The `data` member as sent.
                data: ::core::option::Option<::serde_json::Value>,
            },
        }

        /// The error table, in file order.
        pub const ERROR_TABLE: [#rt::ErrorRow; #n_rows] = [#(#rows),*];

        /// One constructor per row of the error table, each with the row's ErrorInfo attached.
        impl A2aError {
            #(#constructors)*
        }

        #[doc = #taken_doc]
        pub const fn is_code_taken(code: i64) -> bool {
            // A `match`, not `matches!`: prettyplease lays out a pattern it can parse, where it
            // would print a macro's negative literals as `- 32001`.
            match code {
                #(#codes)|* => true,
                _ => code >= #low && code <= #high,
            }
        }

        impl #rt::table::ErrorTable for A2aError {
            fn from_code(code: i64, message: ::core::option::Option<::std::string::String>, data: ::core::option::Option<::serde_json::Value>) -> Self {
                match code {
                    #(#codes => Self::#names {
                        message: message.unwrap_or_else(|| ::std::string::String::from(#messages)),
                        data,
                    },)*
                    _ => Self::Other {
                        code,
                        message: message.unwrap_or_else(|| ::std::string::String::from(#UNKNOWN_MESSAGE)),
                        data,
                    },
                }
            }
            fn code(&self) -> i64 {
                match self {
                    #(Self::#names { .. } => #codes,)*
                    Self::Other { code, .. } => *code,
                }
            }
            fn message(&self) -> &str {
                match self {
                    #(Self::#names { message, .. })|* | Self::Other { message, .. } => message,
                }
            }
            fn data(&self) -> ::core::option::Option<&::serde_json::Value> {
                match self {
                    #(Self::#names { data, .. })|* | Self::Other { data, .. } => data.as_ref(),
                }
            }
            fn data_mut(&mut self) -> &mut ::core::option::Option<::serde_json::Value> {
                match self {
                    #(Self::#names { data, .. })|* | Self::Other { data, .. } => data,
                }
            }
            fn row(&self) -> ::core::option::Option<&'static #rt::ErrorRow> {
                match self {
                    #(Self::#names { .. } => ::core::option::Option::Some(&ERROR_TABLE[#indexes]),)*
                    Self::Other { .. } => ::core::option::Option::None,
                }
            }
            fn rows() -> &'static [#rt::ErrorRow] {
                &ERROR_TABLE
            }
            fn is_code_taken(code: i64) -> bool {
                is_code_taken(code)
            }
        }

        #rt::__private::error_api!(A2aError);
    }
}

/// The name of a row's constructor: the variant's name in snake_case (`TaskNotFound` ->
/// `task_not_found`); validation keeps it clear of the error enum's other methods.
pub(crate) fn constructor_name(variant: &str) -> String {
    crate::naming::snake_case(variant)
}
