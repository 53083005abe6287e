//! Emission of the agent's side of the method table: a typed request enum decoded from JSON-RPC
//! request bodies, the rejection that carries the error to answer with, and typed encoders for
//! responses and stream events. The rules live in the runtime (`rt::server`); this file only maps
//! method names to params types, so the generated code stays a table.

use super::{doc_attrs, EmitOptions};
use crate::ir::MethodDef;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Emits `server.rs` for the table. Refers to `MethodName` and `Reply` of `methods.rs`, `A2aError`
/// of `errors.rs` and the model's types through the parent module.
pub fn emit_server(methods: &[MethodDef], opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let names: Vec<Ident> = methods
        .iter()
        .map(|m| Ident::new(&m.rust_name, Span::call_site()))
        .collect();
    let params: Vec<Ident> = methods
        .iter()
        .map(|m| Ident::new(&m.params, Span::call_site()))
        .collect();
    let request_docs = methods
        .iter()
        .map(|m| doc_attrs(&format!("A `{}` call: {}", m.name, lowercase_first(&m.doc))));

    quote! {
        /// A JSON-RPC request an agent received: one variant per method, holding its params.
        ///
        /// Decode one with [`decode_request`]; a client writes one with [`Request::encode`].
        #[derive(Clone, Debug, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum Request {
            #(#request_docs #names(super::#params),)*
        }

        impl Request {
            /// The method called.
            pub fn method(&self) -> super::MethodName {
                match self { #(Self::#names(_) => super::MethodName::#names,)* }
            }

            /// The JSON-RPC request body for this call with this id.
            pub fn encode(&self, id: &#rt::RequestId) -> ::std::vec::Vec<u8> {
                #rt::server::encode_request(id, self.method().as_str(), self)
            }
        }

        /// Writes the params.
        impl ::serde::Serialize for Request {
            fn serialize<__S: ::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                match self { #(Self::#names(__p) => ::serde::Serialize::serialize(__p, __serializer),)* }
            }
        }

        /// A decoded request with its id.
        #[derive(Clone, Debug, PartialEq)]
        pub struct IncomingRequest {
            /// The request's id; `None` for a notification, which JSON-RPC says gets no response.
            pub id: ::core::option::Option<#rt::RequestId>,
            /// The call.
            pub request: Request,
        }

        impl IncomingRequest {
            /// The id to answer with: the request's, or `null` for a notification.
            pub fn reply_id(&self) -> #rt::RequestId {
                self.id.clone().unwrap_or(#rt::RequestId::Null)
            }
        }

        /// A request that cannot be served: the id to answer with and the error to answer. Its
        /// [`RejectedRequest::to_response`] is the whole response body.
        #[derive(Clone, Debug, PartialEq)]
        pub struct RejectedRequest {
            /// The request's id, or `null` when it could not be read.
            pub id: #rt::RequestId,
            /// `JsonParse`, `InvalidRequest`, `MethodNotFound` or `InvalidParams`; the message
            /// says what was wrong, and `InvalidParams` carries a `google.rpc.BadRequest` detail.
            pub error: super::A2aError,
        }

        impl RejectedRequest {
            /// The JSON-RPC error response body.
            pub fn to_response(&self) -> ::std::vec::Vec<u8> {
                encode_error(&self.id, &self.error)
            }
        }

        impl ::core::convert::From<#rt::Fault> for RejectedRequest {
            fn from(fault: #rt::Fault) -> Self {
                let error = super::A2aError::from_fault(&fault);
                RejectedRequest { id: fault.id, error }
            }
        }

        impl ::core::fmt::Display for RejectedRequest {
            fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(__f, "request {} rejected: {}", self.id, self.error)
            }
        }

        impl ::std::error::Error for RejectedRequest {
            fn source(&self) -> ::core::option::Option<&(dyn ::std::error::Error + 'static)> {
                ::core::option::Option::Some(&self.error)
            }
        }

        /// Decodes a JSON-RPC request body into the typed call, or the rejection to answer with:
        /// -32700 when it is not JSON, -32600 when it is not a request object, -32601 for a method
        /// the table does not have, -32602 when the params do not decode. Unknown members are
        /// ignored at every depth. Never panics, whatever the bytes.
        // The rejection is big, but the typed request beside it is bigger: boxing would not shrink
        // the result.
        #[allow(clippy::result_large_err)]
        pub fn decode_request(body: &[u8]) -> ::core::result::Result<IncomingRequest, RejectedRequest> {
            decode_request_limited(body, &#rt::limits::Limits::DEFAULT)
        }

        /// [`decode_request`] under these limits: a body over them is rejected as an invalid
        /// request (-32600) saying which limit, before any parsing.
        #[allow(clippy::result_large_err)]
        pub fn decode_request_limited(body: &[u8], limits: &#rt::limits::Limits) -> ::core::result::Result<IncomingRequest, RejectedRequest> {
            let raw = #rt::RawRequest::parse_limited(body, limits)?;
            let request = match super::MethodName::from_name(raw.method()) {
                #(::core::option::Option::Some(super::MethodName::#names) => Request::#names(raw.params()?),)*
                ::core::option::Option::None => return ::core::result::Result::Err(raw.unknown_method().into()),
            };
            ::core::result::Result::Ok(IncomingRequest { id: raw.id().cloned(), request })
        }

        /// The success response body for method `M`: `encode_result::<method::GetTask>(&id, &task)`.
        pub fn encode_result<M>(id: &#rt::RequestId, result: &M::Result) -> ::std::vec::Vec<u8>
        where
            M: #rt::Method,
            M::Result: ::serde::Serialize,
        {
            #rt::server::encode_result(id, result)
        }

        /// The error response body, with the error's `data` (its details) when it has one.
        pub fn encode_error(id: &#rt::RequestId, error: &super::A2aError) -> ::std::vec::Vec<u8> {
            #rt::server::encode_error(id, error)
        }

        /// One SSE event of the stream answering streaming method `M`: a result or an error, as a
        /// JSON-RPC response in one `data:` line. Write the events in order; close the stream to end it.
        pub fn encode_event<M>(
            id: &#rt::RequestId,
            item: ::core::result::Result<&M::Result, &super::A2aError>,
        ) -> ::std::vec::Vec<u8>
        where
            M: #rt::Method,
            M::Result: ::serde::Serialize,
        {
            let body = match item {
                ::core::result::Result::Ok(__result) => #rt::server::encode_result(id, __result),
                ::core::result::Result::Err(__error) => #rt::server::encode_error(id, __error),
            };
            #rt::server::sse_event(&body)
        }

        impl super::Reply {
            /// The success response body carrying this result.
            pub fn encode(&self, id: &#rt::RequestId) -> ::std::vec::Vec<u8> {
                #rt::server::encode_result(id, self)
            }
        }

        /// Writes the result.
        impl ::serde::Serialize for super::Reply {
            fn serialize<__S: ::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                match self { #(Self::#names(__r) => ::serde::Serialize::serialize(__r, __serializer),)* }
            }
        }
    }
}

/// "Fetch a task." -> "fetch a task." for use after a colon; acronyms ("SSE ...") are left alone.
fn lowercase_first(doc: &str) -> String {
    let mut chars = doc.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && !second.is_uppercase() => {
            first.to_lowercase().chain(doc.chars().skip(1)).collect()
        }
        _ => doc.to_string(),
    }
}
