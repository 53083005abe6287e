//! Emission of the service layer from the method table, the way tonic-build writes a server
//! trait from a proto service: the `A2aService` trait (one `async fn` per method, each with a
//! default body answering what an agent without the method answers), and, when the table names its protocol version, the `Protocol` a transport reads
//! and the `Dispatch` impl of `A2aServer<S>` that calls the trait. The table-independent parts
//! (the aliases, the `A2aServer` type itself) are the runtime's `service_api!`.

use super::{doc_attrs, EmitOptions};
use crate::ir::{MethodDef, Model};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// The error row answering a method the service does not serve, when the table names none.
const DEFAULT_UNSUPPORTED: &str = "UnsupportedOperation";

/// JSON-RPC's method-not-found, the answer when the error table has no row for the default.
const METHOD_NOT_FOUND: i64 = a2a_facts::jsonrpc::METHOD_NOT_FOUND;

/// The runtime's `ProtocolVersion` variant of a table's `protocol_version`, for the versions a
/// transport negotiates; `None` for another (a draft's), which then gets the trait only.
fn version_variant(version: &str) -> Option<Ident> {
    let name = match version {
        "0.3" => "V0_3",
        "1.0" => "V1_0",
        _ => return None,
    };
    Some(Ident::new(name, Span::call_site()))
}

/// Emits `service.rs`. Refers to `Request` and `decode_request_limited` of `server.rs`, `Reply`
/// and `MethodName` of `methods.rs`, `A2aError` of `errors.rs` and the model's types through the
/// parent module.
pub fn emit_service(model: &Model, opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let methods = &model.methods;
    let fns: Vec<Ident> = methods
        .iter()
        .map(|m| Ident::new(&crate::naming::snake_case(&m.rust_name), Span::call_site()))
        .collect();
    let trait_fns = methods
        .iter()
        .zip(&fns)
        .map(|(m, f)| trait_fn(model, m, f, rt));
    let transport = model
        .protocol_version
        .as_deref()
        .and_then(version_variant)
        .map(|version| transport_impls(model, &fns, &version, opts));
    let trait_doc = format!(
        "The agent's side of this module's methods, as a trait: one `async fn` per method of the \
         table, taking the call's [`RequestContext`] and its typed params, returning its result or \
         a [`ServiceError`] (a standard error of [`A2aError`](super::A2aError), or one of the \
         agent's own through `ServiceError::custom`).\n\n\
         Streaming methods return an [`EventStream`], a boxed `Stream` of events (boxed, so one \
         method may return different streams); an error item ends the stream as its last event.\n\n\
         Every method has a default body answering what the specification says an agent without \
         it answers (each method's docs name the error), so an agent implements only what it \
         serves. Write the methods as `async fn`: the futures must be `Send`. The trait is \
         `Send + Sync + 'static`; a service shared behind an `Arc` is served with \
         `A2aServer::from_arc`, and its methods are called through the `Arc` as on the service.{}",
        if transport.is_some() {
            "\n\nServe it with a transport through [`A2aServer`]: `A2aServer::new(agent)`."
        } else {
            ""
        }
    );
    let trait_doc = doc_attrs(&trait_doc);
    quote! {
        #rt::__private::service_api!(error = super::A2aError);

        #trait_doc
        pub trait A2aService: ::core::marker::Send + ::core::marker::Sync + 'static {
            #(#trait_fns)*
        }

        #transport
    }
}

/// The params type and the success type (the event stream for a streaming method) of `m`.
fn signature_types(m: &MethodDef) -> (TokenStream, TokenStream) {
    let params = Ident::new(&m.params, Span::call_site());
    let result = Ident::new(&m.result, Span::call_site());
    let out = if m.streaming {
        quote!(EventStream<super::#result>)
    } else {
        quote!(super::#result)
    };
    (quote!(super::#params), out)
}

/// One method of the trait, with its default body.
fn trait_fn(model: &Model, m: &MethodDef, f: &Ident, rt: &TokenStream) -> TokenStream {
    let (params, out) = signature_types(m);
    let row_name = m.unsupported.as_deref().unwrap_or(DEFAULT_UNSUPPORTED);
    let (code, answer) = match model.errors.iter().find(|e| e.name == row_name) {
        Some(row) => (row.code, format!("`{}` ({})", row.name, row.code)),
        None => (
            METHOD_NOT_FOUND,
            format!("method-not-found ({METHOD_NOT_FOUND})"),
        ),
    };
    let shape = if m.streaming {
        "a stream of [`"
    } else {
        "one [`"
    };
    let docs = doc_attrs(&format!(
        "{}\n\n`{}`: params [`{}`](super::{}), reply {shape}{}`](super::{}). The default body \
         answers {answer}: what an agent that does not serve it answers.",
        m.doc, m.name, m.params, m.params, m.result, m.result
    ));
    let wire = &m.name;
    quote! {
        #docs
        fn #f(
            &self,
            cx: #rt::service::RequestContext,
            params: #params,
        ) -> impl ::core::future::Future<Output = ::core::result::Result<#out, ServiceError>>
               + ::core::marker::Send {
            #rt::__private::not_served(cx, params, #code, #wire)
        }
    }
}

/// `Protocol` with its two impls (`ProtocolModule`, `service::Protocol`) and the `Dispatch`
/// impl of `A2aServer<S>`.
fn transport_impls(
    model: &Model,
    fns: &[Ident],
    version: &Ident,
    opts: &super::EmitOptions,
) -> TokenStream {
    let rt = &opts.runtime;
    let methods = &model.methods;
    // With the protobuf codec (under its gate), the module serves gRPC, and calls over it.
    let grpc = opts.protobuf.as_ref().map(|gate| {
        quote! {
            #gate
            const GRPC: ::core::option::Option<#rt::service::GrpcCodec<super::Request, super::Reply>> =
                ::core::option::Option::Some(super::protobuf::GRPC);
        }
    });
    let grpc_client = opts.protobuf.as_ref().map(|gate| {
        quote! {
            #gate
            const GRPC_CLIENT: ::core::option::Option<#rt::version::GrpcClientCodec> =
                ::core::option::Option::Some(super::protobuf::GRPC_CLIENT);
        }
    });
    let names: Vec<Ident> = methods
        .iter()
        .map(|m| Ident::new(&m.rust_name, Span::call_site()))
        .collect();
    let has_rest = super::rest::has_routes(model);
    let decode_rest = if has_rest {
        quote!(super::decode_rest_request(verb, path, query, body))
    } else {
        quote! {
            let _ = (query, body);
            ::core::result::Result::Err(#rt::rest::server::RestRejection::no_route(verb, path, false))
        }
    };
    let tenants = methods.iter().zip(&names).map(|(m, name)| {
        match super::methods::tenant_field(model, m) {
            Some(_) => quote! {
                super::Request::#name(__p) => <super::method::#name as #rt::Method>::tenant(__p),
            },
            None => quote!(super::Request::#name(_) => ::core::option::Option::None,),
        }
    });
    let arms = methods.iter().zip(&names).zip(fns).map(|((m, name), f)| {
        let answer = match m.streaming {
            true => quote!(streamed),
            false => quote!(unary),
        };
        quote! {
            super::Request::#name(__p) => {
                #rt::__private::#answer(service.#f(cx, __p), super::Reply::#name).await
            }
        }
    });
    quote! {
        /// This module as a client and a transport see it: its protocol version, whether it has
        /// HTTP+JSON routes and its error type (`ProtocolModule`, what both sides need), and its
        /// request decoders on both bindings with its `Request` and `Reply` types
        /// (`service::Protocol`, what only a server needs).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Protocol;

        impl #rt::version::ProtocolModule for Protocol {
            const VERSION: #rt::version::ProtocolVersion = #rt::version::ProtocolVersion::#version;
            const HTTP_JSON: bool = #has_rest;
            type Error = super::A2aError;
            #grpc_client
        }

        impl #rt::service::Protocol for Protocol {
            type Request = super::Request;
            type Reply = super::Reply;

            fn decode_jsonrpc(
                body: &[u8],
                limits: &#rt::limits::Limits,
            ) -> ::core::result::Result<super::IncomingRequest, super::RejectedRequest> {
                super::decode_request_limited(body, limits)
            }

            fn decode_rest(
                verb: &str,
                path: &str,
                query: &str,
                body: &[u8],
            ) -> ::core::result::Result<super::Request, #rt::rest::server::RestRejection<super::A2aError>> {
                #decode_rest
            }

            fn method_name(request: &super::Request) -> &'static str {
                request.method().as_str()
            }

            fn tenant(request: &super::Request) -> ::core::option::Option<&str> {
                match request {
                    #(#tenants)*
                }
            }

            #grpc
        }

        impl<S: A2aService> #rt::service::Dispatch for A2aServer<S> {
            type Protocol = Protocol;

            fn dispatch(
                &self,
                cx: #rt::service::RequestContext,
                request: super::Request,
            ) -> #rt::service::BoxFuture<
                ::core::result::Result<
                    #rt::service::Outcome<super::Reply, super::A2aError>,
                    ServiceError,
                >,
            > {
                let service = ::std::sync::Arc::clone(self.service());
                ::std::boxed::Box::pin(async move {
                    match request {
                        #(#arms)*
                    }
                })
            }
        }
    }
}
