//! Emission of the method table: one unit type per JSON-RPC method (implementing the runtime's
//! `Method` trait), a `MethodName` enum for run-time dispatch, typed reply decoding, and the
//! typed request enum both sides share.

use super::{doc_attrs, EmitOptions};
use crate::ir::{MethodDef, Model, Presence, TypeKind, TypeRef};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Emits `methods.rs` for the table: the method types, `MethodName`, `Reply` and `Request`. Refers
/// to the model's types and to `CallError` and `Decoder` of `errors.rs` through the parent module.
pub fn emit_methods(model: &Model, opts: &EmitOptions) -> TokenStream {
    let methods = &model.methods;
    let rt = &opts.runtime;
    let rest_impls = super::rest::rest_method_impls(model, rt);
    let names: Vec<Ident> = methods
        .iter()
        .map(|m| Ident::new(&m.rust_name, Span::call_site()))
        .collect();
    let wire: Vec<&str> = methods.iter().map(|m| m.name.as_str()).collect();
    let results: Vec<Ident> = methods
        .iter()
        .map(|m| Ident::new(&m.result, Span::call_site()))
        .collect();
    let params_names: Vec<&str> = methods.iter().map(|m| m.params.as_str()).collect();
    let results_names: Vec<&str> = methods.iter().map(|m| m.result.as_str()).collect();
    let streaming: Vec<bool> = methods.iter().map(|m| m.streaming).collect();
    let n = methods.len();
    let params: Vec<Ident> = methods
        .iter()
        .map(|m| Ident::new(&m.params, Span::call_site()))
        .collect();
    let request_docs = methods.iter().map(|m| {
        doc_attrs(&format!(
            "A `{}` call: {}",
            m.name,
            super::server::lowercase_first(&m.doc)
        ))
    });

    let unit_types = methods
        .iter()
        .zip(&names)
        .map(|(m, name)| unit_type(model, m, name, rt));
    let name_docs = methods.iter().map(|m| format!(" `{}`: {}", m.name, m.doc));
    let reply_docs = methods
        .iter()
        .map(|m| format!(" The result of `{}`.", m.name));

    quote! {
        /// The JSON-RPC methods, one unit type each, for typed decoding:
        /// `decode_reply::<method::GetTask>(body)` gives a `Task`.
        pub mod method {
            #(#unit_types)*
            #(#rest_impls)*
        }

        /// The JSON-RPC methods, for code that learns the method at run time.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum MethodName {
            #(#[doc = #name_docs] #names,)*
        }

        impl MethodName {
            /// Every method, in table order.
            pub const ALL: [Self; #n] = [#(Self::#names),*];

            /// The method with this wire name.
            pub fn from_name(name: &str) -> ::core::option::Option<Self> {
                match name {
                    #(#wire => ::core::option::Option::Some(Self::#names),)*
                    _ => ::core::option::Option::None,
                }
            }

            /// The wire name.
            pub fn as_str(self) -> &'static str {
                match self { #(Self::#names => #wire,)* }
            }

            /// Whether the reply is an SSE stream.
            pub fn is_streaming(self) -> bool {
                match self { #(Self::#names => #streaming,)* }
            }

            /// The name of the params type.
            pub fn params_type(self) -> &'static str {
                match self { #(Self::#names => #params_names,)* }
            }

            /// The name of the result type (per event for a streaming method).
            pub fn result_type(self) -> &'static str {
                match self { #(Self::#names => #results_names,)* }
            }
        }

        /// The decoded result of any method, for code that learns the method at run time.
        #[derive(Clone, Debug, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum Reply {
            #(#[doc = #reply_docs] #names(super::#results),)*
        }

        impl Reply {
            /// Decodes `body` as the reply of `method`, as `decoder` reads replies (its binding,
            /// limits and the agent's own errors `E`): `Reply::decode(method, body,
            /// &Decoder::new())`.
            pub fn decode<E: #rt::custom::AgentError>(method: MethodName, body: &[u8], decoder: &super::Decoder<E>) -> ::core::result::Result<Self, super::CallError<E>> {
                match method {
                    #(MethodName::#names => decoder.decode(body).map(Self::#names),)*
                }
            }

            /// The method this is the result of.
            pub fn method(&self) -> MethodName {
                match self { #(Self::#names(_) => MethodName::#names,)* }
            }

        }

        /// A JSON-RPC request an agent received: one variant per method, holding its params.
        ///
        /// A server decodes one with `decode_request`; a client writes one with [`Request::encode`].
        #[derive(Clone, Debug, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum Request {
            #(#request_docs #names(super::#params),)*
        }

        impl Request {
            /// The method called.
            pub fn method(&self) -> MethodName {
                match self { #(Self::#names(_) => MethodName::#names,)* }
            }

            /// The JSON-RPC request body for this call with this id.
            pub fn encode(&self, id: &#rt::RequestId) -> ::std::vec::Vec<u8> {
                #rt::jsonrpc::client::encode_request(id, self.method().as_str(), self)
            }
        }

        /// Writes the params.
        impl ::serde::Serialize for Request {
            fn serialize<__S: ::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                match self { #(Self::#names(__p) => ::serde::Serialize::serialize(__p, __serializer),)* }
            }
        }

        #rt::__private::client_api!();
    }
}

/// The unit type of one method: its `Method` impl (params, result, streaming, and the tenant
/// field when its params have one).
fn unit_type(model: &Model, m: &MethodDef, name: &Ident, rt: &TokenStream) -> TokenStream {
    // (`name` is the Rust ident; `m.name` the wire name, used in docs and NAME.)
    let shape = if m.streaming {
        "an SSE stream of"
    } else {
        "one"
    };
    let docs = doc_attrs(&format!(
        "{}\n\n`{}`: params [`{}`](super::super::{}), reply {shape} [`{}`](super::super::{}).",
        m.doc, m.name, m.params, m.params, m.result, m.result
    ));
    let (p, r, s, w) = (
        Ident::new(&m.params, Span::call_site()),
        Ident::new(&m.result, Span::call_site()),
        m.streaming,
        &m.name,
    );
    let tenant = tenant_field(model, m).map(|(field, optional)| {
        let (read, fill) = match optional {
            true => (
                quote!(params.#field.as_deref().filter(|__t| !__t.is_empty())),
                quote!(params.#field = ::core::option::Option::Some(::std::string::String::from(tenant))),
            ),
            false => (
                quote!(::core::option::Option::Some(params.#field.as_str()).filter(|__t| !__t.is_empty())),
                quote!(params.#field = ::std::string::String::from(tenant)),
            ),
        };
        quote! {
            fn tenant(params: &Self::Params) -> ::core::option::Option<&str> {
                #read
            }
            fn fill_tenant(params: &mut Self::Params, tenant: &str) {
                #fill;
            }
        }
    });
    quote! {
        #docs
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct #name;
        impl #rt::Method for #name {
            const NAME: &'static str = #w;
            const STREAMING: bool = #s;
            type Params = super::super::#p;
            type Result = super::super::#r;
            #tenant
        }
    }
}

/// The `tenant` text field of a method's params (its ident, and whether it is optional);
/// `None` when the params type has none.
pub(super) fn tenant_field(model: &Model, m: &MethodDef) -> Option<(Ident, bool)> {
    let TypeKind::Struct(s) = &model.types.get(&m.params)?.kind else {
        return None;
    };
    let field = s
        .fields
        .iter()
        .find(|f| f.json_name == "tenant" && matches!(model.resolve(&f.ty), TypeRef::String))?;
    Some((
        Ident::new(&field.rust_name, Span::call_site()),
        matches!(field.presence, Presence::Optional),
    ))
}
