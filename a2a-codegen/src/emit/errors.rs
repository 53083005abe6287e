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
    let rt_doc = opts.runtime_doc_path();
    let from_custom_doc = doc_attrs(&format!(
        "The error object of an agent's own error (see [`AgentError`]({rt_doc}::custom::AgentError)):\n\
         its code, its row's message and its `data`. Codes of custom errors never collide with\n\
         the table, so this is [`A2aError::Other`]."
    ));
    let call_error_doc = doc_attrs(&format!(
        "Why a call failed: the agent answered with an error (a standard one, or one of the\n\
         agent's own errors `E`), or the reply broke the contract: [`{rt_doc}::client::CallError`]\n\
         with this table's [`A2aError`].\n\n\
         `E` defaults to [`NoCustomErrors`]({rt_doc}::custom::NoCustomErrors), which has no values: then\n\
         `Custom` cannot occur and a `match` need not name it."
    ));
    let stream_doc = doc_attrs(&format!(
        "[`{rt_doc}::client::StreamDecoder`] (`new`, `with_limits`, `feed`, `finish`)."
    ));
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
    let (unlisted_grpc, unlisted_http) = (
        a2a_facts::custom::DEFAULT_GRPC,
        Literal::u16_unsuffixed(a2a_facts::custom::DEFAULT_HTTP),
    );
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

        #[doc = #taken_doc]
        pub const fn is_code_taken(code: i64) -> bool {
            matches!(code, #(#codes)|*) || (code >= #low && code <= #high)
        }

        impl A2aError {
            /// The typed error for a code, with the table's default message when `message` is `None`.
            pub fn from_code(
                code: i64,
                message: ::core::option::Option<::std::string::String>,
                data: ::core::option::Option<::serde_json::Value>,
            ) -> Self {
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

            /// The typed error for a received error object.
            pub fn from_raw(raw: #rt::RawError) -> Self {
                <Self as #rt::table::ErrorTable>::from_raw(raw)
            }

            /// The JSON-RPC error code.
            pub fn code(&self) -> i64 {
                match self {
                    #(Self::#names { .. } => #codes,)*
                    Self::Other { code, .. } => *code,
                }
            }

            /// The message (the agent's, or the default).
            pub fn message(&self) -> &str {
                match self {
                    #(Self::#names { message, .. })|* | Self::Other { message, .. } => message,
                }
            }

            /// The `data` member, when the agent sent one.
            pub fn data(&self) -> ::core::option::Option<&::serde_json::Value> {
                match self {
                    #(Self::#names { data, .. })|* | Self::Other { data, .. } => data.as_ref(),
                }
            }

            #from_custom_doc
            pub fn from_custom<__E: #rt::custom::AgentError>(error: &__E) -> Self {
                Self::from_code(
                    error.code(),
                    ::core::option::Option::Some(::std::string::String::from(error.message())),
                    ::core::option::Option::Some(error.data()),
                )
            }

            /// This error as the agent's own error type `E`: `Some` when the code is one of `E`'s and
            /// the `data` carries the variant's fields.
            pub fn to_custom<__E: #rt::custom::AgentError>(&self) -> ::core::option::Option<__E> {
                match self {
                    Self::Other { code, data, .. } => __E::from_code_and_data(*code, data.as_ref()),
                    _ => ::core::option::Option::None,
                }
            }

            /// This error with its `data` replaced.
            pub fn with_data(mut self, value: ::core::option::Option<::serde_json::Value>) -> Self {
                match &mut self {
                    #(Self::#names { data, .. })|* | Self::Other { data, .. } => *data = value,
                }
                self
            }

            /// This error with `data` set to the v1 array of `@type` objects (A2A v1 §9.5).
            ///
            /// (Not a doctest: this module may be generated into any crate, under any path.)
            ///
            /// ```text
            /// let e = A2aError::from_code(-32001, None, None);
            /// let info = e.error_info([("taskId", "t-1")]).unwrap();
            /// let e = e.with_details([info]);
            /// assert_eq!(e.details()[0].reason(), Some("TASK_NOT_FOUND"));
            /// ```
            pub fn with_details(self, details: impl ::core::iter::IntoIterator<Item = #rt::ErrorDetail>) -> Self {
                self.with_data(::core::option::Option::Some(#rt::ErrorDetail::list_to_data(details)))
            }

            /// The `@type` objects of a v1 `data` array, in order; empty when `data` is anything else.
            pub fn details(&self) -> ::std::vec::Vec<#rt::ErrorDetail> {
                #rt::ErrorDetail::list_from(self.data())
            }

            /// The `google.rpc.ErrorInfo` A2A v1 prescribes for this error: the table's reason in the
            /// `a2a-protocol.org` domain, with `metadata`. `None` when the row has no reason (the
            /// standard JSON-RPC errors, and [`A2aError::Other`]).
            pub fn error_info<__K, __V>(&self, metadata: impl ::core::iter::IntoIterator<Item = (__K, __V)>) -> ::core::option::Option<#rt::ErrorDetail>
            where
                __K: ::core::convert::Into<::std::string::String>,
                __V: ::core::convert::Into<::std::string::String>,
            {
                #rt::table::error_info(self, metadata)
            }

            /// The error answering a request the runtime could not serve: the table's default
            /// message, then what was wrong; the fault's details as `data`.
            pub fn from_fault(fault: &#rt::Fault) -> Self {
                <Self as #rt::table::ErrorTable>::from_fault(fault)
            }

            /// The table row of this error; `None` for [`A2aError::Other`].
            pub fn row(&self) -> ::core::option::Option<&'static #rt::ErrorRow> {
                match self {
                    #(Self::#names { .. } => ::core::option::Option::Some(&ERROR_TABLE[#indexes]),)*
                    Self::Other { .. } => ::core::option::Option::None,
                }
            }

            /// The variant's name (`"TaskNotFound"`, or `"Other"`).
            pub fn name(&self) -> &'static str {
                self.row().map_or("Other", |row| row.name)
            }

            /// The gRPC status code name from the table (`UNKNOWN` for a code no row names).
            pub fn grpc_status(&self) -> &'static str {
                self.row().map_or(#unlisted_grpc, |row| row.grpc)
            }

            /// The HTTP status from the table (500 for a code no row names).
            pub fn http_status(&self) -> u16 {
                self.row().map_or(#unlisted_http, |row| row.http)
            }
        }

        impl ::core::fmt::Display for A2aError {
            fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                #rt::table::fmt_error(self, __f)
            }
        }

        impl ::std::error::Error for A2aError {}

        /// Writes the JSON-RPC error object: `code`, `message`, and `data` when present.
        impl ::serde::Serialize for A2aError {
            fn serialize<__S: ::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                #rt::table::serialize_error(self, __serializer)
            }
        }

        /// Reads a JSON-RPC error object leniently: extra members ignored, a missing or non-string
        /// `message` replaced by the table's default.
        impl<'de> ::serde::Deserialize<'de> for A2aError {
            fn deserialize<__D: ::serde::Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                <#rt::RawError as ::serde::Deserialize>::deserialize(__deserializer).map(Self::from_raw)
            }
        }

        impl #rt::table::ErrorTable for A2aError {
            fn from_code(code: i64, message: ::core::option::Option<::std::string::String>, data: ::core::option::Option<::serde_json::Value>) -> Self {
                A2aError::from_code(code, message, data)
            }
            fn code(&self) -> i64 {
                A2aError::code(self)
            }
            fn message(&self) -> &str {
                A2aError::message(self)
            }
            fn data(&self) -> ::core::option::Option<&::serde_json::Value> {
                A2aError::data(self)
            }
            fn row(&self) -> ::core::option::Option<&'static #rt::ErrorRow> {
                A2aError::row(self)
            }
            fn is_code_taken(code: i64) -> bool {
                is_code_taken(code)
            }
        }

        #call_error_doc
        pub type CallError<E = #rt::custom::NoCustomErrors> = #rt::client::CallError<A2aError, E>;

        /// Decodes a streamed reply (an SSE body) incrementally, every event with the same contract
        /// as [`decode_response`]; `E` is the agent's own error type, if it has one. See
        #stream_doc
        pub type StreamDecoder<T, E = #rt::custom::NoCustomErrors> = #rt::client::StreamDecoder<T, A2aError, E>;

        /// Decodes a JSON-RPC response body: the `result` as `T`, the agent's typed error, or the
        /// client error saying what was malformed. Never panics, whatever the bytes.
        pub fn decode_response<T: ::serde::de::DeserializeOwned>(body: &[u8]) -> ::core::result::Result<T, CallError> {
            #rt::client::decode_response_with(body)
        }

        /// [`decode_response`] for an agent with its own errors `E`: an error whose code is one of
        /// `E`'s comes back as `CallError::Custom` with the variant's fields.
        pub fn decode_response_with<T: ::serde::de::DeserializeOwned, E: #rt::custom::AgentError>(body: &[u8]) -> ::core::result::Result<T, CallError<E>> {
            #rt::client::decode_response_with(body)
        }

        /// [`decode_response`] under these limits (the defaults are 16 MiB and serde_json's depth
        /// of 128): a body over them is malformed, with the reason, before any parsing.
        pub fn decode_response_limited<T: ::serde::de::DeserializeOwned>(body: &[u8], limits: &#rt::limits::Limits) -> ::core::result::Result<T, CallError> {
            #rt::client::decode_response_with_limits(body, limits)
        }

        /// [`decode_response_with`] (the agent's own errors `E`) under these limits.
        pub fn decode_response_with_limits<T: ::serde::de::DeserializeOwned, E: #rt::custom::AgentError>(body: &[u8], limits: &#rt::limits::Limits) -> ::core::result::Result<T, CallError<E>> {
            #rt::client::decode_response_with_limits(body, limits)
        }

        /// What `#[derive(AgentError)]` expansions reach through this module's path.
        #[doc(hidden)]
        #[allow(unused_imports)] // used only by expansions, and only when the module is reachable
        pub mod __derive {
            pub use super::{is_code_taken, ERROR_TABLE};
            pub use #rt::custom::{field, field_value, find_fields, AgentError, TakenMessage};
            pub use #rt::{ErrorDetail, ErrorRow};
            pub use ::serde_json::Value;
        }
    }
}
