//! Emission of the HTTP+JSON binding's tables: each method's routes (its `google.api.http` rules,
//! and the routes a server also takes it at) and the fields of its params that may travel as
//! query parameters, as an implementation of the
//! runtime's `rest::RestMethod` on the method's unit type. The runtime's `rest` module does the
//! rest, generically.

use crate::ir::{HttpRule, MethodDef, Model, TypeKind, TypeRef};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// The `RestMethod` implementations, one per method. A method without HTTP rules (every method
/// of A2A v0.3's table) has no routes: a client calls it over JSON-RPC only, through the same
/// generic calls as the others. Placed in the `method` module beside the unit types.
pub(crate) fn rest_method_impls(model: &Model, rt: &TokenStream) -> Vec<TokenStream> {
    model
        .methods
        .iter()
        .map(|m| {
            let name = Ident::new(&m.rust_name, Span::call_site());
            let routes = m.http.iter().map(|r| route(r, rt));
            let query = match m.http.is_empty() {
                true => Vec::new(),
                false => query_params(model, m, rt),
            };
            // Emitted only when the table gives some: the trait's default is none.
            let also = (!m.http_also_served.is_empty()).then(|| {
                let also = m.http_also_served.iter().map(|r| route(r, rt));
                quote!(const ALSO_SERVED: &'static [#rt::rest::Route] = &[#(#also),*];)
            });
            quote! {
                impl #rt::rest::RestMethod for #name {
                    const ROUTES: &'static [#rt::rest::Route] = &[#(#routes),*];
                    const QUERY: &'static [#rt::rest::QueryParam] = &[#(#query),*];
                    #also
                }
            }
        })
        .collect()
}

/// Whether any method has HTTP rules: then the REST API is emitted.
pub(crate) fn has_routes(model: &Model) -> bool {
    model.methods.iter().any(|m| !m.http.is_empty())
}

fn route(rule: &HttpRule, rt: &TokenStream) -> TokenStream {
    let (verb, path) = (&rule.verb, &rule.path);
    let body = match &rule.body {
        Some(b) => quote!(::core::option::Option::Some(#b)),
        None => quote!(::core::option::Option::None),
    };
    quote!(#rt::rest::Route { verb: #verb, path: #path, body: #body })
}

/// The scalar fields (and lists of scalars) of the method's params, each with how a query value
/// is read into it.
fn query_params(model: &Model, m: &MethodDef, rt: &TokenStream) -> Vec<TokenStream> {
    let Some(TypeKind::Struct(s)) = model.types.get(&m.params).map(|d| &d.kind) else {
        return Vec::new();
    };
    s.fields
        .iter()
        .filter_map(|f| {
            let (ty, repeated) = match model.resolve(&f.ty) {
                TypeRef::List(item) => (model.resolve(item), true),
                other => (other, false),
            };
            let kind = param_kind(model, ty)?;
            let kind = Ident::new(kind, Span::call_site());
            let name = &f.json_name;
            let alias = match &f.alias {
                Some(a) => quote!(::core::option::Option::Some(#a)),
                None => quote!(::core::option::Option::None),
            };
            Some(quote!(#rt::rest::QueryParam {
                name: #name, alias: #alias, kind: #rt::rest::ParamKind::#kind, repeated: #repeated
            }))
        })
        .collect()
}

/// How a query value reads into a field of this type; `None` for types that never travel in a
/// query (messages, maps, free-form JSON).
fn param_kind(model: &Model, ty: &TypeRef) -> Option<&'static str> {
    Some(match ty {
        TypeRef::String | TypeRef::Bytes | TypeRef::Timestamp => "Text",
        TypeRef::Bool => "Bool",
        TypeRef::Int32 | TypeRef::Integer | TypeRef::Int64 | TypeRef::UInt64 => "Integer",
        TypeRef::Number => "Number",
        TypeRef::Named(id) => match model.types.get(id).map(|d| &d.kind) {
            Some(TypeKind::Enum(_)) => "Enum",
            _ => return None,
        },
        _ => return None,
    })
}
