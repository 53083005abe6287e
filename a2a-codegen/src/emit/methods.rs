//! Emission of the method table: one unit type per JSON-RPC method (implementing the runtime's
//! `Method` trait), a `MethodName` enum for run-time dispatch, and typed reply decoding.

use super::{doc_attrs, EmitOptions};
use crate::ir::Model;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Emits `methods.rs` for the table. Refers to the model's types and to `CallError` and
/// `decode_response` of `errors.rs` through the parent module.
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

    let unit_types = methods.iter().zip(&names).map(|(m, name)| {
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
        quote! {
            #docs
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub struct #name;
            impl #rt::Method for #name {
                const NAME: &'static str = #w;
                const STREAMING: bool = #s;
                type Params = super::super::#p;
                type Result = super::super::#r;
            }
        }
    });
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
            /// `Reply::decode` for an agent with its own errors `E`.
            pub fn decode_with<E: #rt::custom::AgentError>(method: MethodName, body: &[u8]) -> ::core::result::Result<Self, super::CallError<E>> {
                match method {
                    #(MethodName::#names => super::decode_response_with(body).map(Self::#names),)*
                }
            }

            /// The method this is the result of.
            pub fn method(&self) -> MethodName {
                match self { #(Self::#names(_) => MethodName::#names,)* }
            }

        }

        #rt::client_api!();
    }
}
