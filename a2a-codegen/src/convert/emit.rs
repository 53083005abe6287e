//! The tokens of the `convert` module: one `Convert` impl per pair and direction, `TryFrom` over
//! it, and the service adapter.

use super::{hand, Dir, Plan};
use crate::diff::Side;
use crate::ir::*;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Paths the emitted code names: the runtime, the older module (where the file goes: `super`)
/// and the newer one.
pub(crate) struct Paths {
    pub(crate) rt: TokenStream,
    pub(crate) old: TokenStream,
    pub(crate) new: TokenStream,
}

/// The whole module, or every problem found (each naming the table and a fix).
pub(crate) fn emit_convert(plan: &Plan<'_>, paths: &Paths) -> Result<TokenStream, String> {
    let e = Emitter { plan, paths };
    let mut out = TokenStream::new();
    let mut problems = Vec::new();
    for (old_id, new_id) in &plan.pairs {
        match e.pair(old_id, new_id) {
            Ok(tokens) => out.extend(tokens),
            Err(p) => problems.push(p),
        }
    }
    match e.service() {
        Ok(tokens) => out.extend(tokens),
        Err(p) => problems.push(p),
    }
    match problems.is_empty() {
        true => Ok(out),
        false => Err(problems.join("\n")),
    }
}

pub(crate) struct Emitter<'p, 'a> {
    pub(crate) plan: &'p Plan<'a>,
    pub(crate) paths: &'p Paths,
}

fn ident(name: &str) -> Ident {
    match crate::naming::is_keyword(name) {
        true => Ident::new_raw(name, Span::call_site()),
        false => Ident::new(name, Span::call_site()),
    }
}

impl Emitter<'_, '_> {
    /// The path of type `id` on the side `dir` reads from (`src`) or writes to.
    fn path(&self, dir: Dir, src: bool, id: &str) -> TokenStream {
        let older = (dir == Dir::Up) == src;
        let module = match older {
            true => &self.paths.old,
            false => &self.paths.new,
        };
        let id = ident(id);
        quote!(#module::#id)
    }

    /// Both directions of one pair, and `TryFrom` over them.
    fn pair(&self, old_id: &str, new_id: &str) -> Result<TokenStream, String> {
        let rt = &self.paths.rt;
        let mut out = match self.plan.hand(old_id, None) {
            Some(name) => hand::pair(name, self.paths).ok_or_else(|| {
                format!(
                    "{}: [hand] `{old_id}` = `{name}`: a2a-codegen has no hand-written \
                     conversion of that name (see its src/convert/hand.rs)",
                    self.plan.label
                )
            })?,
            None => {
                let up = self.body(Dir::Up, old_id, new_id)?;
                let down = self.body(Dir::Down, new_id, old_id)?;
                let (o, n) = (
                    self.path(Dir::Up, true, old_id),
                    self.path(Dir::Up, false, new_id),
                );
                quote! {
                    #[allow(unused_variables)]
                    impl #rt::convert::Convert<#n> for #o {
                        fn convert(self, cx: &mut #rt::convert::Cx) -> ::core::result::Result<#n, #rt::convert::ConvertError> {
                            #up
                        }
                    }
                    #[allow(unused_variables)]
                    impl #rt::convert::Convert<#o> for #n {
                        fn convert(self, cx: &mut #rt::convert::Cx) -> ::core::result::Result<#o, #rt::convert::ConvertError> {
                            #down
                        }
                    }
                }
            }
        };
        // `TryFrom` between two of our types; not for an alias of a foreign type (the 0.3
        // `serde_json::Value` result), whose impls could overlap serde_json's.
        let foreign = |side: Side<'_>, id: &str| matches!(side.kind(&TypeRef::Named(id.to_owned())), Some(TypeKind::Alias(r)) if !matches!(r, TypeRef::List(_)));
        if !foreign(self.plan.old, old_id) && !foreign(self.plan.new, new_id) {
            let (o, n) = (
                self.path(Dir::Up, true, old_id),
                self.path(Dir::Up, false, new_id),
            );
            out.extend(quote! {
                impl ::core::convert::TryFrom<#o> for #n {
                    type Error = #rt::convert::ConvertError;
                    fn try_from(value: #o) -> ::core::result::Result<Self, Self::Error> {
                        #rt::convert::strict(value)
                    }
                }
                impl ::core::convert::TryFrom<#n> for #o {
                    type Error = #rt::convert::ConvertError;
                    fn try_from(value: #n) -> ::core::result::Result<Self, Self::Error> {
                        #rt::convert::strict(value)
                    }
                }
            });
        }
        Ok(out)
    }

    /// The body of `convert` from `src` (on the side `dir` reads) to `dst`.
    fn body(&self, dir: Dir, src: &str, dst: &str) -> Result<TokenStream, String> {
        let (s, d) = self.plan.sides(dir);
        let (sk, dk) = (&s.0.types[src].kind, &d.0.types[dst].kind);
        match (sk, dk) {
            (TypeKind::Struct(a), TypeKind::Struct(b)) => self.structs(dir, src, a, dst, b),
            (TypeKind::Enum(a), TypeKind::Enum(b)) => Ok(self.enums(dir, src, a, dst, b)),
            (
                TypeKind::OneOf(_) | TypeKind::Tagged(_),
                TypeKind::OneOf(_) | TypeKind::Tagged(_),
            ) => self.unions(dir, src, sk, dst, dk),
            _ => Err(format!(
                "{}: `{src}` and `{dst}` are different kinds of type; name a hand-written \
                 conversion for the pair in [hand]",
                self.plan.label
            )),
        }
    }

    /// The older name of a pair's member (`Type.member`), for the table's keys.
    fn old_of<'n>(&self, dir: Dir, src: &'n str, dst: &'n str) -> &'n str {
        match dir {
            Dir::Up => src,
            Dir::Down => dst,
        }
    }

    fn structs(
        &self,
        dir: Dir,
        src: &str,
        a: &StructDef,
        dst: &str,
        b: &StructDef,
    ) -> Result<TokenStream, String> {
        let (s, d) = self.plan.sides(dir);
        let old_ty = self.old_of(dir, src, dst);
        // (older field, newer field) names.
        let old_fields = match dir {
            Dir::Up => a,
            Dir::Down => b,
        };
        let map: Vec<(String, String)> = old_fields
            .fields
            .iter()
            .map(|f| {
                let n = self.plan.new_field_name(old_ty, &f.rust_name).to_owned();
                (f.rust_name.clone(), n)
            })
            .collect();
        // The target's name of a source field, and the source's name of a target field.
        let to_dst = |name: &str| -> Option<String> {
            match dir {
                Dir::Up => map.iter().find(|(o, _)| o == name).map(|(_, n)| n.clone()),
                Dir::Down => map.iter().find(|(_, n)| n == name).map(|(o, _)| o.clone()),
            }
        };
        let to_src = |name: &str| -> Option<String> {
            match dir {
                Dir::Up => map.iter().find(|(_, n)| n == name).map(|(o, _)| o.clone()),
                Dir::Down => map.iter().find(|(o, _)| o == name).map(|(_, n)| n.clone()),
            }
        };
        let hand_missing = |name: &str| {
            format!(
                "{}: [hand] `{old_ty}.{name}`: a2a-codegen has no hand-written field conversion \
                 of that name",
                self.plan.label
            )
        };
        let mut checks = Vec::new();
        for f in &a.fields {
            let there = to_dst(&f.rust_name);
            if there
                .as_deref()
                .is_some_and(|n| b.fields.iter().any(|g| g.rust_name == n))
            {
                continue;
            }
            // An older field only the older version has, derived by hand when converting down.
            if dir == Dir::Up && self.plan.hand(old_ty, Some(&f.rust_name)).is_some() {
                continue;
            }
            let (fi, json) = (ident(&f.rust_name), &f.json_name);
            let reason = format!("the other version's `{dst}` has no place for it");
            checks.push(quote!(cx.not_carried(#json, &self.#fi, #reason)?;));
        }
        let mut inits = Vec::new();
        for g in &b.fields {
            let gi = ident(&g.rust_name);
            let from =
                to_src(&g.rust_name).and_then(|n| a.fields.iter().find(|f| f.rust_name == n));
            let Some(f) = from else {
                if let (Dir::Down, Some(name)) = (dir, self.plan.hand(old_ty, Some(&g.rust_name))) {
                    // A field only the older version has, derived from the whole newer value.
                    let e = hand::field(name, dir, quote!(&self), self.paths)
                        .ok_or_else(|| hand_missing(name))?;
                    let local = ident(&format!("__{}", g.rust_name));
                    checks.push(quote!(let #local = #e?;));
                    inits.push(quote!(#gi: #local));
                    continue;
                }
                if g.presence == Presence::Required && !d.is_collection(&g.ty) {
                    return Err(format!(
                        "{}: `{dst}.{}` is required and `{src}` has no field for it; map one in \
                         [fields] or convert the pair in [hand]",
                        self.plan.label, g.rust_name
                    ));
                }
                inits.push(quote!(#gi: ::core::default::Default::default()));
                continue;
            };
            let old_field = match dir {
                Dir::Up => &f.rust_name,
                Dir::Down => &g.rust_name,
            };
            let fi = ident(&f.rust_name);
            let value = quote!(self.#fi);
            let json = &f.json_name;
            let expr = match self.plan.hand(old_ty, Some(old_field)) {
                Some(name) => {
                    let e = hand::field(name, dir, value, self.paths).ok_or_else(|| {
                        format!(
                            "{}: [hand] `{old_ty}.{old_field}` = `{name}`: a2a-codegen has no \
                             hand-written field conversion of that name",
                            self.plan.label
                        )
                    })?;
                    quote!(cx.at(#json, |cx| #e)?)
                }
                None => self
                    .field(dir, (s, f), (d, g), value, json)
                    .map_err(|why| {
                        format!(
                            "{}: `{src}.{}` -> `{dst}.{}`: {why}; map the field in [fields] or \
                         convert it in [hand]",
                            self.plan.label, f.rust_name, g.rust_name
                        )
                    })?,
            };
            inits.push(quote!(#gi: #expr));
        }
        let dst_path = self.path(dir, false, dst);
        Ok(quote! {
            #(#checks)*
            ::core::result::Result::Ok(#dst_path { #(#inits,)* })
        })
    }

    /// One field's value in the target: its conversion with the Option-ness of both sides.
    fn field(
        &self,
        dir: Dir,
        (s, f): (Side<'_>, &Field),
        (d, g): (Side<'_>, &Field),
        value: TokenStream,
        json: &str,
    ) -> Result<TokenStream, String> {
        let conv = self.conv(dir, &f.ty, &g.ty, quote!(__v))?;
        let (so, dopt) = (s.is_option(f), d.is_option(g));
        Ok(match (so, dopt, conv) {
            (false, false, None) | (true, true, None) => value,
            (false, true, None) => quote!(::core::option::Option::Some(#value)),
            (true, false, None) => quote!(cx.required(#json, #value)?),
            (false, false, Some(c)) => quote!(cx.at(#json, |cx| { let __v = #value; #c })?),
            (false, true, Some(c)) => {
                quote!(::core::option::Option::Some(cx.at(#json, |cx| { let __v = #value; #c })?))
            }
            (true, true, Some(c)) => quote! {
                match #value {
                    ::core::option::Option::Some(__v) => ::core::option::Option::Some(cx.at(#json, |cx| #c)?),
                    ::core::option::Option::None => ::core::option::Option::None,
                }
            },
            (true, false, Some(c)) => quote! {
                match #value {
                    ::core::option::Option::Some(__v) => cx.at(#json, |cx| #c)?,
                    ::core::option::Option::None => {
                        cx.lose(#json, "absent, and the other version requires it")?;
                        ::core::default::Default::default()
                    }
                }
            },
        })
    }

    /// The conversion of a value `v` of `a` (source side) to `b`: `None` when the Rust types are
    /// the same (the value moves), else an expression of `Result<B, ConvertError>` using `cx`.
    fn conv(
        &self,
        dir: Dir,
        a: &TypeRef,
        b: &TypeRef,
        v: TokenStream,
    ) -> Result<Option<TokenStream>, String> {
        let (s, d) = self.plan.sides(dir);
        let (a, b) = (s.resolve(a), d.resolve(b));
        let rt = &self.paths.rt;
        let ok = |e: TokenStream| Some(quote!(::core::result::Result::Ok(#e)));
        Ok(match (a, b) {
            (TypeRef::Named(x), TypeRef::Named(y)) => {
                let (x, y) = (x.as_str(), y.as_str());
                if !self.plan.paired(dir, x, y) {
                    return Err(format!("no conversion between `{x}` and `{y}`"));
                }
                let p = self.path(dir, false, y);
                Some(quote!(#rt::convert::Convert::<#p>::convert(#v, cx)))
            }
            (TypeRef::Named(x), _) | (_, TypeRef::Named(x)) => {
                return Err(format!("`{x}` meets a type that is not a named one"))
            }
            (TypeRef::List(x), TypeRef::List(y)) => match self.named_fn(dir, x, y) {
                Some(f) => Some(quote!(cx.each(#v, #f))),
                None => self
                    .conv(dir, x, y, quote!(__x))?
                    .map(|c| quote!(cx.each(#v, |__x, cx| #c))),
            },
            (TypeRef::Map(x), TypeRef::Map(y)) => match self.named_fn(dir, x, y) {
                Some(f) => Some(quote!(cx.values(#v, #f))),
                None => self
                    .conv(dir, x, y, quote!(__x))?
                    .map(|c| quote!(cx.values(#v, |__x, cx| #c))),
            },
            (TypeRef::Integer | TypeRef::Int64, TypeRef::Int32) => Some(quote!(cx.narrow(#v))),
            (TypeRef::Int32, TypeRef::Integer | TypeRef::Int64) => {
                ok(quote!(::core::primitive::i64::from(#v)))
            }
            (TypeRef::String, TypeRef::Timestamp) => ok(quote!(#rt::Timestamp::from(#v))),
            (TypeRef::Timestamp, TypeRef::String) => ok(quote!(#v.into_string())),
            (TypeRef::JsonObject, TypeRef::Any) => ok(quote!(::serde_json::Value::Object(#v))),
            (x, y) if s.rust_type(x) == d.rust_type(y) => None,
            (x, y) => {
                return Err(format!(
                    "no conversion from `{}` to `{}`",
                    s.rust_type(x),
                    d.rust_type(y)
                ))
            }
        })
    }

    /// The conversion function of two paired named types, as a path (for `each` and `values`).
    fn named_fn(&self, dir: Dir, a: &TypeRef, b: &TypeRef) -> Option<TokenStream> {
        let (s, d) = self.plan.sides(dir);
        match (s.resolve(a), d.resolve(b)) {
            (TypeRef::Named(x), TypeRef::Named(y)) if self.plan.paired(dir, x, y) => {
                let (rt, p) = (&self.paths.rt, self.path(dir, false, y));
                Some(quote!(#rt::convert::Convert::<#p>::convert))
            }
            _ => None,
        }
    }

    fn enums(&self, dir: Dir, src: &str, a: &EnumDef, dst: &str, b: &EnumDef) -> TokenStream {
        let old_ty = self.old_of(dir, src, dst);
        let dst_path = self.path(dir, false, dst);
        let arms = a.values.iter().map(|v| {
            let there = self.counterpart_variant(
                dir,
                &self.plan.table.values,
                old_ty,
                &v.variant,
                b.values.iter().map(|x| x.variant.as_str()),
            );
            let vi = ident(&v.variant);
            match there {
                Some(n) => {
                    let ni = ident(&n);
                    quote!(Self::#vi => #dst_path::#ni)
                }
                None => {
                    let (wire, reason) = (
                        &v.wire,
                        format!("`{}` has no counterpart in the other version", v.wire),
                    );
                    quote!(Self::#vi => {
                        cx.lose("", #reason)?;
                        #dst_path::Unrecognized(::std::string::String::from(#wire))
                    })
                }
            }
        });
        quote! {
            ::core::result::Result::Ok(match self {
                #(#arms,)*
                Self::Unrecognized(__s) => #dst_path::Unrecognized(__s),
            })
        }
    }

    /// The target's variant for a source variant: by the table (older names as keys) or the same
    /// name, if the target has it.
    fn counterpart_variant<'v>(
        &self,
        dir: Dir,
        map: &std::collections::BTreeMap<String, String>,
        old_ty: &str,
        variant: &str,
        targets: impl Iterator<Item = &'v str> + Clone,
    ) -> Option<String> {
        let want = match dir {
            Dir::Up => self.plan.new_variant(map, old_ty, variant).to_owned(),
            Dir::Down => map
                .iter()
                .find(|(k, n)| {
                    k.strip_prefix(old_ty)
                        .and_then(|r| r.strip_prefix('.'))
                        .is_some()
                        && n.as_str() == variant
                })
                .map(|(k, _)| k[old_ty.len() + 1..].to_owned())
                .unwrap_or_else(|| variant.to_owned()),
        };
        targets.clone().any(|t| t == want).then_some(want)
    }

    fn unions(
        &self,
        dir: Dir,
        src: &str,
        a: &TypeKind,
        dst: &str,
        b: &TypeKind,
    ) -> Result<TokenStream, String> {
        let old_ty = self.old_of(dir, src, dst);
        let dst_path = self.path(dir, false, dst);
        // (variant, payload type, JSON member when a oneof)
        let members = |k: &TypeKind| -> Vec<(String, TypeRef, Option<String>)> {
            match k {
                TypeKind::OneOf(g) => g
                    .members
                    .iter()
                    .map(|m| (m.variant.clone(), m.ty.clone(), Some(m.json_name.clone())))
                    .collect(),
                TypeKind::Tagged(t) => t
                    .variants
                    .iter()
                    .map(|v| (v.variant.clone(), TypeRef::Named(v.ty.clone()), None))
                    .collect(),
                _ => Vec::new(),
            }
        };
        let (ma, mb) = (members(a), members(b));
        let mut arms = Vec::new();
        for (variant, ty, json) in &ma {
            let vi = ident(variant);
            let there = self.counterpart_variant(
                dir,
                &self.plan.table.variants,
                old_ty,
                variant,
                mb.iter().map(|m| m.0.as_str()),
            );
            let Some((n, nty, _)) = there.and_then(|n| mb.iter().find(|m| m.0 == n)) else {
                let reason = format!("`{variant}` has no counterpart in the other version");
                arms.push(quote!(Self::#vi(_) => {
                    cx.lose("", #reason)?;
                    ::core::default::Default::default()
                }));
                continue;
            };
            let ni = ident(n);
            let c = self.conv(dir, ty, nty, quote!(__v)).map_err(|why| {
                format!(
                    "{}: `{src}::{variant}` -> `{dst}::{n}`: {why}",
                    self.plan.label
                )
            })?;
            let value = match (c, json) {
                (None, _) => quote!(__v),
                (Some(c), Some(j)) => quote!(cx.at(#j, |cx| #c)?),
                (Some(c), None) => quote!(#c?),
            };
            arms.push(quote!(Self::#vi(__v) => #dst_path::#ni(#value)));
        }
        Ok(quote! {
            ::core::result::Result::Ok(match self {
                #(#arms,)*
                Self::Unknown(__u) => #dst_path::Unknown(__u),
            })
        })
    }

    /// The adapter: the older version's service trait over a service of the newer one.
    fn service(&self) -> Result<TokenStream, String> {
        let pairs = self.plan.method_pairs()?;
        if pairs.is_empty() {
            return Ok(TokenStream::new());
        }
        let (rt, old, new) = (&self.paths.rt, &self.paths.old, &self.paths.new);
        let mut methods = Vec::new();
        let mut counterparts = Vec::new();
        for (m, n) in pairs {
            let (mm, nm) = (ident(&m.rust_name), ident(&n.rust_name));
            counterparts.push(quote! {
                impl Counterpart for #new::method::#nm {
                    type Method = #old::method::#mm;
                }
            });
            for (x, y, what) in [
                (&m.params, &n.params, "params"),
                (&m.result, &n.result, "result"),
            ] {
                if !self.plan.paired(Dir::Up, x, y) {
                    return Err(format!(
                        "{}: method `{}`: its {what} `{x}` has no conversion to `{y}` (of `{}`); \
                         pair them in [types]",
                        self.plan.label, m.rust_name, n.rust_name
                    ));
                }
            }
            let (mi, ni) = (
                ident(&crate::naming::snake_case(&m.rust_name)),
                ident(&crate::naming::snake_case(&n.rust_name)),
            );
            let (p, r) = (ident(&m.params), ident(&m.result));
            let call = quote! {
                let params = #rt::convert::params(params)?;
                let reply = #new::A2aService::#ni(&*self.0, cx, params).await;
            };
            methods.push(match m.streaming {
                false => quote! {
                    async fn #mi(&self, cx: #old::RequestContext, params: #old::#p) -> ::core::result::Result<#old::#r, #old::ServiceError> {
                        #call
                        #rt::convert::reply(reply)
                    }
                },
                true => quote! {
                    async fn #mi(&self, cx: #old::RequestContext, params: #old::#p) -> ::core::result::Result<#old::EventStream<#old::#r>, #old::ServiceError> {
                        #call
                        #rt::convert::events(reply)
                    }
                },
            });
        }
        let doc = format!(
            " This version's service over a service of the other version (`{new}`): each call's \
             params converted strictly (what the other version cannot express is this version's \
             invalid params, naming the member), its reply and events lossily (what this version \
             cannot carry is left out, as a2a-sdk's compat layer leaves it out), its errors by \
             code. Serve it beside the other version's server, over the same `Arc`.",
            new = new.to_string().replace(' ', "")
        );
        let counterpart_doc = format!(
            " A method of the other version (`{new}`) that one of this version's serves: what a \
             client written against the other version calls on an agent that speaks only this \
             one (its params converted down, its result up). The other version's methods without \
             one have no impl.",
            new = new.to_string().replace(' ', "")
        );
        Ok(quote! {
            #[doc = #doc]
            pub struct Compat<S>(pub ::std::sync::Arc<S>);

            impl<S> ::core::clone::Clone for Compat<S> {
                fn clone(&self) -> Self {
                    Compat(::std::sync::Arc::clone(&self.0))
                }
            }

            impl<S> ::core::fmt::Debug for Compat<S> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str("Compat")
                }
            }

            impl<S: #new::A2aService> #old::A2aService for Compat<S> {
                #(#methods)*
            }

            #[doc = #counterpart_doc]
            pub trait Counterpart: #rt::Method {
                /// This version's method.
                type Method: #rt::Method;
            }

            #(#counterparts)*
        })
    }
}
