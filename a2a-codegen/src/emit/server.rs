//! Emission of the agent's side of the method table: a typed request enum decoded from JSON-RPC
//! request bodies, the rejection that carries the error to answer with, and typed encoders for
//! responses and stream events. The rules live in the runtime (`rt::jsonrpc::server`,
//! `rt::rest::server`); this file only maps
//! method names to params types, so the generated code stays a table.

use super::{doc_attrs, EmitOptions};
use crate::ir::{MethodDef, Model};
use crate::requires::Step;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Emits `server.rs` for the model's method table. Refers to `MethodName` and `Reply` of
/// `methods.rs`, `A2aError` of `errors.rs` and the model's types through the parent module.
pub fn emit_server(model: &Model, opts: &EmitOptions) -> TokenStream {
    let methods = &model.methods;
    let rt = &opts.runtime;
    let names: Vec<Ident> = methods
        .iter()
        .map(|m| Ident::new(&m.rust_name, Span::call_site()))
        .collect();
    let (check_of, defined) = check_fns(model);
    let check_items: Vec<TokenStream> = defined
        .iter()
        .map(|(m, f)| required_fn(model, m, f, opts))
        .collect();
    let decode_arms = methods
        .iter()
        .zip(&names)
        .zip(&check_of)
        .map(|((m, name), check)| {
            let arm = quote!(::core::option::Option::Some(super::MethodName::#name));
            match check {
                None => quote!(#arm => super::Request::#name(raw.params()?),),
                Some(check) => {
                    let method = &m.name;
                    quote! {
                        #arm => {
                            let __p = raw.params()?;
                            raw.require(#method, &#check(&__p))?;
                            super::Request::#name(__p)
                        }
                    }
                }
            }
        });
    // The `A2A-Version` a client of this table sends: none for 0.3 (its absence means 0.3).
    let version = match model.protocol_version.as_deref() {
        None | Some("0.3") => quote!(::core::option::Option::None),
        Some(v) => quote!(::core::option::Option::Some(#v)),
    };
    let rest = super::rest::has_routes(model).then(|| {
        let arms = methods
            .iter()
            .zip(&names)
            .zip(&check_of)
            .filter(|((m, _), _)| !m.http.is_empty())
            .map(|((m, name), check)| {
                let method = &m.name;
                let check = check
                    .as_ref()
                    .map(|check| quote!(#rt::__private::rest_require(#method, &#check(&__p))?;));
                quote! {
                    if let ::core::option::Option::Some((__route, __captures)) = #rt::__private::find_route::<super::method::#name>(verb, path, &mut __other_verb) {
                        let __p = #rt::__private::decode_rest_params::<super::method::#name>(__route, __captures, query, body)?;
                        #check
                        return ::core::result::Result::Ok(super::Request::#name(__p));
                    }
                }
            });
        quote! {
            #rt::__private::rest_api!(error = super::A2aError, version = #version);

            /// Decodes an HTTP+JSON (REST) request into the typed call, or the rejection to answer
            /// with: 404 for a path no route has, 405 for a verb its routes do not take, 400 with
            /// a `google.rpc.BadRequest` naming the parameter or field for a query value or body
            /// that does not read, or params that lack what the method cannot run without (the
            /// method table's `requires`, as over JSON-RPC). `path` is the request path below the
            /// agent's base URL (`/tasks/t-1`, `/acme/tasks/t-1` with a tenant), `query` the query
            /// string without `?`. Unknown query parameters and members are ignored. Never panics,
            /// whatever the bytes.
            #[allow(clippy::result_large_err)]
            pub fn decode_rest_request(verb: &str, path: &str, query: &str, body: &[u8]) -> ::core::result::Result<super::Request, RestRejection> {
                let mut __other_verb = false;
                #(#arms)*
                ::core::result::Result::Err(RestRejection::no_route(verb, path, __other_verb))
            }
        }
    });

    quote! {
        #rt::__private::server_api!(request = super::Request, error = super::A2aError, reply = super::Reply);

        /// `decode_request` under these limits: a body over them is rejected as an invalid
        /// request (-32600) saying which limit, before any parsing.
        #[allow(clippy::result_large_err)]
        pub fn decode_request_limited(body: &[u8], limits: &#rt::limits::Limits) -> ::core::result::Result<IncomingRequest, RejectedRequest> {
            let raw = #rt::__private::RawRequest::parse_limited(body, limits)?;
            let request = match super::MethodName::from_name(raw.method()) {
                #(#decode_arms)*
                ::core::option::Option::None => return ::core::result::Result::Err(raw.unknown_method().into()),
            };
            ::core::result::Result::Ok(IncomingRequest { id: raw.id().cloned(), request })
        }

        #(#check_items)*

        #rest

        /// Writes the result.
        impl ::serde::Serialize for super::Reply {
            fn serialize<__S: ::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                match self { #(Self::#names(__r) => ::serde::Serialize::serialize(__r, __serializer),)* }
            }
        }
    }
}

/// For each method, the name of the check function of its `requires` (`None`: it has none), and
/// the methods that define one with its name: one function per distinct (params type, requires
/// list), named for the first method that has it (SendMessage and SendStreamingMessage share
/// theirs). The functions are `pub(super)`: the protobuf module's gRPC decoder runs them too.
pub(super) fn check_fns(model: &Model) -> (Vec<Option<Ident>>, Vec<(&MethodDef, Ident)>) {
    let mut defined: Vec<(&MethodDef, Ident)> = Vec::new();
    let check_of = model
        .methods
        .iter()
        .map(|m| {
            if m.requires.is_empty() {
                return None;
            }
            if let Some((_, f)) = defined
                .iter()
                .find(|(o, _)| o.params == m.params && o.requires == m.requires)
            {
                return Some(f.clone());
            }
            let f = Ident::new(
                &format!("required_{}", crate::naming::snake_case(&m.rust_name)),
                Span::call_site(),
            );
            defined.push((m, f.clone()));
            Some(f)
        })
        .collect();
    (check_of, defined)
}

/// The check function of a method with `requires`: each required field (`params.message.parts`)
/// with whether it is missing from the decoded params, in table order. A missing optional parent
/// means the fields below it are not missing (only what was sent must be complete); the last field
/// is missing when it is unset. Paths that do not resolve were reported by validation.
fn required_fn(model: &Model, m: &MethodDef, name: &Ident, opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let params = Ident::new(&m.params, Span::call_site());
    let checks: Vec<TokenStream> = m
        .requires
        .iter()
        .filter_map(|path| {
            let steps = crate::requires::resolve(model, &m.params, path).ok()?;
            let field = format!("params.{path}");
            let missing = missing_expr(&steps, rt);
            Some(quote!((#field, #missing)))
        })
        .collect();
    let n = proc_macro2::Literal::usize_unsuffixed(checks.len());
    let doc = doc_attrs(&format!(
        "The `requires` of `{}` in the method table: each field with whether `__p` lacks it.",
        m.name
    ));
    quote! {
        #doc
        pub(super) fn #name(__p: &super::#params) -> [(&'static str, bool); #n] {
            [#(#checks,)*]
        }
    }
}

/// Whether the field at `steps` below `__p` is missing, as a `bool` expression: optional parents
/// are followed with `Option` combinators, so an absent one yields `false`.
fn missing_expr(steps: &[Step], rt: &TokenStream) -> TokenStream {
    let Some((last, parents)) = steps.split_last() else {
        return quote!(false); // not produced: a resolved path has a step
    };
    // `value` is a place of type T, or (when `optional`) an expression of type Option<&T>.
    let mut value = quote!(__p);
    let mut optional = false;
    for step in parents {
        let f = field_ident(&step.rust_name);
        value = match (optional, step.optional) {
            (false, false) => quote!(#value.#f),
            (false, true) => quote!(#value.#f.as_ref()),
            (true, false) => quote!(#value.map(|__v| &__v.#f)),
            (true, true) => quote!(#value.and_then(|__v| __v.#f.as_ref())),
        };
        optional |= step.optional;
    }
    let f = field_ident(&last.rust_name);
    // An open enum's empty string decodes as an unrecognized value, but says no more than an
    // absent one (protobuf reads both as 0): missing too.
    let leaf = |v: TokenStream| match (last.optional, last.open_enum) {
        (false, false) => quote!(#rt::__private::is_unset(&#v.#f)),
        (true, false) => quote!(#v.#f.as_ref().is_none_or(#rt::__private::is_unset)),
        (false, true) => quote!(#rt::__private::is_unset(&#v.#f) || #v.#f.as_str().is_empty()),
        (true, true) => quote! {
            #v.#f.as_ref().is_none_or(|__e| #rt::__private::is_unset(__e) || __e.as_str().is_empty())
        },
    };
    if optional {
        let leaf = leaf(quote!(__v));
        quote!(#value.is_some_and(|__v| #leaf))
    } else {
        leaf(value)
    }
}

fn field_ident(name: &str) -> Ident {
    if crate::naming::is_keyword(name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// "Fetch a task." -> "fetch a task." for use after a colon; acronyms ("SSE ...") are left alone.
pub(super) fn lowercase_first(doc: &str) -> String {
    let mut chars = doc.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && !second.is_uppercase() => {
            first.to_lowercase().chain(doc.chars().skip(1)).collect()
        }
        _ => doc.to_string(),
    }
}
