//! Emission of the protobuf binary codec for the generated types themselves: no second set of
//! types (as prost-build would make) and no conversion between two sets. Each message gets the
//! runtime's `protobuf::Message` (its fields written and read by their proto field numbers) and
//! `protobuf::ProtoField` (how it is written as a field of another message); each enum gets
//! `ProtoField` (a varint of its number). Aliases (`Struct`, `Value`, `Timestamp`) name runtime
//! or serde_json types, which the runtime implements.
//!
//! What a field is on the wire follows from its IR type and presence, as in JSON:
//!
//! - a required field has proto3's implicit presence: written unless it is its type's default (a
//!   message is not written when it writes no field, so that it reads back the same);
//! - an optional one (`Option`) is written when `Some`: proto3's explicit presence;
//! - lists are `repeated` (packed for numbers, bools and enums, and read packed or not), maps are
//!   `map<string, V>`;
//! - a oneof member is written when it is the variant set; an unknown member (`Unknown`) is not
//!   written, as protobuf cannot carry a member it has no number for.
//!
//! Decoding is tolerant as the JSON side is: unknown fields and fields whose wire type does not
//! fit are skipped (unknown fields are kept in `unknown_protobuf_fields` and written back with
//! `preserve_unknown_fields`), unknown enum numbers survive as `Unrecognized`, and in a message
//! that is nothing but a oneof, a field it does not know becomes the `Unknown` variant.

use super::EmitOptions;
use crate::facts::UNKNOWN_PROTOBUF_FIELDS;
use crate::ir::{
    Field, Literal, Model, OneOfGroup, Presence, StructDef, TypeDef, TypeKind, TypeRef,
};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// A field or member that the codec cannot be generated for, with where it is and why.
pub(crate) struct Gap {
    /// `Type.member`.
    pub(crate) name: String,
    /// Where it is defined (a JSON pointer or a proto location).
    pub(crate) pointer: String,
    /// What is missing.
    pub(crate) reason: &'static str,
}

/// What stands between the model and a protobuf codec: fields without numbers, and shapes
/// protobuf has no encoding for (lists of lists, internally tagged unions).
pub(crate) fn gaps(model: &Model) -> Vec<Gap> {
    let mut gaps = Vec::new();
    for def in model.types.values() {
        let (fields, group): (&[Field], Option<&OneOfGroup>) = match &def.kind {
            TypeKind::Struct(s) => (&s.fields, s.oneof.as_ref().map(|o| &o.group)),
            TypeKind::OneOf(g) => (&[], Some(g)),
            TypeKind::Tagged(_) => {
                gaps.push(Gap {
                    name: def.name.clone(),
                    pointer: def.pointer.clone(),
                    reason: "an internally tagged union (A2A v0.3's `kind`) has no protobuf form",
                });
                continue;
            }
            TypeKind::Enum(_) | TypeKind::Alias(_) => continue,
            // The IR is `#[non_exhaustive]`: a kind this emitter does not know has no codec.
            #[allow(unreachable_patterns)]
            _ => continue,
        };
        for f in fields {
            if let Presence::Defaulted(lit) = &f.presence {
                if !is_zero(lit) {
                    gaps.push(Gap {
                        name: format!("{}.{}", def.name, f.json_name),
                        pointer: f.pointer.clone(),
                        reason: "a `default` other than the zero value has no protobuf form (an absent field reads as zero there)",
                    });
                }
            }
        }
        let members = group.into_iter().flat_map(|g| &g.members);
        let all = fields
            .iter()
            .map(|f| (&f.json_name, f.number, &f.ty, &f.pointer))
            .chain(members.map(|m| (&m.json_name, m.number, &m.ty, &def.pointer)));
        for (json_name, number, ty, pointer) in all {
            let name = format!("{}.{json_name}", def.name);
            if number.is_none() {
                gaps.push(Gap {
                    name,
                    pointer: pointer.clone(),
                    reason: "it has no field number",
                });
            } else if nested_collection(model, ty) {
                gaps.push(Gap {
                    name,
                    pointer: pointer.clone(),
                    reason: "a list or map of lists or maps has no protobuf form (wrap the inner one in a message)",
                });
            }
        }
    }
    gaps
}

fn is_zero(lit: &Literal) -> bool {
    match lit {
        Literal::String(s) => s.is_empty(),
        Literal::Integer(i) => *i == 0,
        Literal::Number(n) => *n == 0.0,
        Literal::Bool(b) => !b,
        #[allow(unreachable_patterns)]
        _ => false,
    }
}

fn nested_collection(model: &Model, ty: &TypeRef) -> bool {
    match model.resolve(ty) {
        TypeRef::List(inner) | TypeRef::Map(inner) => {
            matches!(model.resolve(inner), TypeRef::List(_) | TypeRef::Map(_))
        }
        _ => false,
    }
}

/// Emits `protobuf.rs` (the model has no [`gaps`]). Refers to the types through the parent module.
pub fn emit_protobuf(model: &Model, opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let items = model.types.values().map(|def| {
        let ident = Ident::new(&def.name, Span::call_site());
        match &def.kind {
            TypeKind::Struct(s) => {
                let message = struct_message(model, def, s, opts);
                let field = message_field(&ident, rt);
                quote!(#message #field)
            }
            TypeKind::OneOf(g) => {
                let message = oneof_message(def, g, rt);
                let field = message_field(&ident, rt);
                quote!(#message #field)
            }
            TypeKind::Enum(_) => enum_field(&ident, rt),
            _ => TokenStream::new(),
        }
    });
    let grpc = (!model.methods.is_empty()).then(|| grpc_codec(model, rt));
    quote! {
        //! The protobuf binary codec of this module's types: each message implements
        //! `Message` and `ProtoField`, each enum `ProtoField`, with the field numbers of the proto.
        #![allow(clippy::match_single_binding)]
        #(#items)*
        #grpc
    }
}

/// The gRPC binding's request decoder and reply encoder over the method table (the module's
/// `service::Protocol::GRPC`): a request body is the method's params message, checked against
/// the table's `requires` as on the JSON bindings (the check functions of `server.rs`), and a
/// reply is the result message.
fn grpc_codec(model: &Model, rt: &TokenStream) -> TokenStream {
    let (check_of, _) = super::server::check_fns(model);
    let decode_arms = model.methods.iter().zip(&check_of).map(|(m, check)| {
        let name = Ident::new(&m.rust_name, Span::call_site());
        let params = Ident::new(&m.params, Span::call_site());
        let method = &m.name;
        let check = check.as_ref().map(
            |check| quote!(#rt::__private::grpc_require(#method, &super::server::#check(&__p))?;),
        );
        quote! {
            super::MethodName::#name => {
                let __p = #rt::__private::grpc_decode::<super::#params>(body, limits)?;
                #check
                super::Request::#name(__p)
            }
        }
    });
    let encode_arms = model.methods.iter().map(|m| {
        let name = Ident::new(&m.rust_name, Span::call_site());
        quote!(super::Reply::#name(__r) => #rt::protobuf::Message::encode_to_vec(__r),)
    });
    let params_arms = model.methods.iter().map(|m| {
        let name = Ident::new(&m.rust_name, Span::call_site());
        let params = Ident::new(&m.params, Span::call_site());
        quote!(super::MethodName::#name => #rt::__private::grpc_encode_params::<super::#params>(params),)
    });
    let result_arms = model.methods.iter().map(|m| {
        let name = Ident::new(&m.rust_name, Span::call_site());
        let result = Ident::new(&m.result, Span::call_site());
        quote!(super::MethodName::#name => #rt::__private::grpc_decode_result::<super::#result>(bytes, limits),)
    });
    quote! {
        /// The gRPC binding's codec of the method table: `service::Protocol::GRPC` (unused in a
        /// module without a protocol version, which has no transport impls).
        #[allow(dead_code)]
        pub(super) const GRPC: #rt::service::GrpcCodec<super::Request, super::Reply> =
            #rt::service::GrpcCodec { decode: decode_grpc, encode: encode_grpc };

        /// The call of rpc `method` (`None`: the table has no such method) with its params
        /// message `body`, or why it cannot be served (it does not decode, or lacks a field the
        /// method's `requires` name).
        fn decode_grpc(
            method: &str,
            body: &[u8],
            limits: &#rt::limits::Limits,
        ) -> ::core::option::Option<::core::result::Result<super::Request, #rt::server::Fault>> {
            let method = super::MethodName::from_name(method)?;
            ::core::option::Option::Some(decode_grpc_call(method, body, limits))
        }

        fn decode_grpc_call(
            method: super::MethodName,
            body: &[u8],
            limits: &#rt::limits::Limits,
        ) -> ::core::result::Result<super::Request, #rt::server::Fault> {
            ::core::result::Result::Ok(match method {
                #(#decode_arms)*
            })
        }

        /// The result message of a reply.
        fn encode_grpc(reply: &super::Reply) -> ::std::vec::Vec<u8> {
            match reply {
                #(#encode_arms)*
            }
        }

        /// The gRPC client's codec of the method table: `version::ProtocolModule::GRPC_CLIENT`.
        #[allow(dead_code)]
        pub(super) const GRPC_CLIENT: #rt::version::GrpcClientCodec =
            #rt::version::GrpcClientCodec { encode: encode_grpc_params, decode: decode_grpc_result };

        /// The request message of rpc `method` for `params` (its params type, else `None`).
        fn encode_grpc_params(
            method: &str,
            params: &dyn ::core::any::Any,
        ) -> ::core::option::Option<::std::vec::Vec<u8>> {
            match super::MethodName::from_name(method)? {
                #(#params_arms)*
            }
        }

        /// A reply message of rpc `method`, read as its result type.
        fn decode_grpc_result(
            method: &str,
            bytes: &[u8],
            limits: &#rt::limits::Limits,
        ) -> ::core::option::Option<::core::result::Result<::std::boxed::Box<dyn ::core::any::Any + ::core::marker::Send>, ::std::string::String>> {
            ::core::option::Option::Some(match super::MethodName::from_name(method)? {
                #(#result_arms)*
            })
        }
    }
}

fn number_of(number: Option<u32>) -> u32 {
    number.expect("checked by gaps() before emission")
}

/// The field function a field of this presence is written and read with: implicit presence for
/// required and defaulted fields, `Option` for optional ones, repeated and map for collections.
fn codec_fns(model: &Model, f: &Field) -> (Ident, Ident, Ident) {
    let names = match (model.resolve(&f.ty), &f.presence) {
        (TypeRef::List(_), _) => ("encode_repeated", "encoded_len_repeated", "merge_repeated"),
        (TypeRef::Map(_), _) => ("encode_map", "encoded_len_map", "merge_map"),
        (_, Presence::Optional) => ("encode_option", "encoded_len_option", "merge_option"),
        _ => ("encode_implicit", "encoded_len_implicit", "merge"),
    };
    let ident = |n: &str| Ident::new(n, Span::call_site());
    (ident(names.0), ident(names.1), ident(names.2))
}

/// `field_name`: the JSON names by number, for error paths.
fn field_names<'a>(names: impl Iterator<Item = (u32, &'a str)>) -> TokenStream {
    let arms = names.map(|(n, name)| quote!(#n => ::core::option::Option::Some(#name),));
    quote! {
        fn field_name(number: u32) -> ::core::option::Option<&'static str> {
            match number {
                #(#arms)*
                _ => ::core::option::Option::None,
            }
        }
    }
}

fn struct_message(model: &Model, def: &TypeDef, s: &StructDef, opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let name = &def.name;
    let ident = Ident::new(name, Span::call_site());
    // Fields are written in number order, as protobuf's own serializers write them (the oneof
    // at its lowest member's number); read in any order.
    let mut encode: Vec<(u32, TokenStream)> = Vec::new();
    let mut len = Vec::new();
    let mut merge = Vec::new();
    // Whether the message writes nothing: each field's own test, cheapest first in field order
    // (the first set field ends it).
    let mut empty = Vec::new();
    for f in &s.fields {
        let n = number_of(f.number);
        let field = super::types::ident(&f.rust_name);
        empty.push(match (model.resolve(&f.ty), &f.presence) {
            (TypeRef::List(_) | TypeRef::Map(_), _) => quote!(self.#field.is_empty()),
            (_, Presence::Optional) => quote!(self.#field.is_none()),
            _ => quote!(#rt::protobuf::ProtoField::is_default(&self.#field)),
        });
        let (enc, ln, mrg) = codec_fns(model, f);
        encode.push((n, quote!(#rt::protobuf::#enc(#n, &self.#field, buf);)));
        len.push(quote!(#rt::protobuf::#ln(#n, &self.#field)));
        merge.push(quote!(#n => #rt::protobuf::#mrg(#n, wire, &mut self.#field, r),));
    }
    let mut names: Vec<(u32, &str)> = s
        .fields
        .iter()
        .map(|f| (number_of(f.number), f.json_name.as_str()))
        .collect();
    if let Some(o) = &s.oneof {
        let field = super::types::ident(&o.rust_name);
        let enum_ident = Ident::new(&o.enum_name, Span::call_site());
        let (enc, ln, mrg) = oneof_arms(
            &o.group,
            &enum_ident,
            (quote!(&self.#field), quote!(self.#field)),
            rt,
        );
        let first = o.group.members.iter().map(|m| number_of(m.number)).min();
        empty.push(quote!(
            ::core::matches!(self.#field, super::#enum_ident::Unknown(_))
        ));
        encode.push((first.unwrap_or(0), enc));
        len.push(quote!((#ln)));
        merge.extend(mrg);
        names.extend(
            o.group
                .members
                .iter()
                .map(|m| (number_of(m.number), m.json_name.as_str())),
        );
    }
    encode.sort_by_key(|(n, _)| *n);
    let encode = encode.into_iter().map(|(_, tokens)| tokens);
    names.sort_unstable();
    let field_name = field_names(names.into_iter());
    // With `preserve_unknown_fields`, a number the message does not know is kept (key and
    // value) in the struct's `unknown_protobuf_fields` and written back after the known ones.
    let (keep, fallback) = if opts.preserve_unknown {
        let field = super::types::ident(UNKNOWN_PROTOBUF_FIELDS);
        empty.push(quote!(self.#field.is_empty()));
        len.push(quote!(self.#field.len()));
        (
            Some(quote!(self.#field.encode_raw(buf);)),
            quote!(_ => self.#field.keep(number, wire, r),),
        )
    } else {
        (None, quote!(_ => r.skip(number, wire),))
    };
    let len = if len.is_empty() {
        quote!(0)
    } else {
        quote!(#(#len)+*)
    };
    let unused = s.fields.is_empty() && s.oneof.is_none() && keep.is_none();
    let unused = unused.then(|| quote!(let _ = buf;));
    let encode = quote!(#unused #(#encode)* #keep);
    let empty = if empty.is_empty() {
        quote!(true)
    } else {
        quote!(#(#empty)&&*)
    };
    message_impl(
        &ident,
        name,
        field_name,
        encode,
        len,
        quote!(#(#merge)* #fallback),
        empty,
        rt,
    )
}

/// The `Message` impl around its parts: the field names, the encode statements, the length
/// expression and the merge arms (a fallback arm included).
#[allow(clippy::too_many_arguments)]
fn message_impl(
    ident: &Ident,
    name: &str,
    field_name: TokenStream,
    encode: TokenStream,
    len: TokenStream,
    arms: TokenStream,
    is_empty: TokenStream,
    rt: &TokenStream,
) -> TokenStream {
    quote! {
        impl #rt::protobuf::Message for super::#ident {
            const NAME: &'static str = #name;
            #field_name
            #[inline]
            fn is_empty(&self) -> bool {
                #is_empty
            }
            fn encode_raw(&self, buf: &mut ::std::vec::Vec<u8>) {
                #encode
            }
            fn encoded_len(&self) -> usize {
                #len
            }
            fn merge_field(
                &mut self,
                number: u32,
                wire: #rt::protobuf::WireType,
                r: &mut #rt::protobuf::Reader<'_>,
            ) -> ::core::result::Result<(), #rt::protobuf::DecodeError> {
                match number {
                    #arms
                }
            }
        }
    }
}

/// The encode statement, the length expression and the merge arms of a oneof held in `place`
/// (an lvalue), which `read` borrows.
fn oneof_arms(
    group: &OneOfGroup,
    enum_ident: &Ident,
    (read, place): (TokenStream, TokenStream),
    rt: &TokenStream,
) -> (TokenStream, TokenStream, Vec<TokenStream>) {
    let mut enc = Vec::new();
    let mut len = Vec::new();
    let mut merge = Vec::new();
    for m in &group.members {
        let n = number_of(m.number);
        let variant = Ident::new(&m.variant, Span::call_site());
        enc.push(quote!(super::#enum_ident::#variant(__v) => #rt::protobuf::encode(#n, __v, buf),));
        len.push(quote!(super::#enum_ident::#variant(__v) => #rt::protobuf::encoded_len(#n, __v),));
        // The member already set merges (a message member read twice merges, as in protobuf);
        // another member, or none, is replaced, once the wire type is known to fit.
        merge.push(quote! {
            #n => {
                if let super::#enum_ident::#variant(__v) = &mut #place {
                    return #rt::protobuf::merge(#n, wire, __v, r);
                }
                let mut __v = ::core::default::Default::default();
                if #rt::protobuf::merge_fresh(#n, wire, &mut __v, r)? {
                    #place = super::#enum_ident::#variant(__v);
                }
                ::core::result::Result::Ok(())
            }
        });
    }
    let enc = quote! {
        match #read {
            #(#enc)*
            super::#enum_ident::Unknown(_) => {}
        }
    };
    let len = quote! {
        match #read {
            #(#len)*
            super::#enum_ident::Unknown(_) => 0,
        }
    };
    (enc, len, merge)
}

/// A message that is nothing but a oneof: the Rust enum is the message.
fn oneof_message(def: &TypeDef, g: &OneOfGroup, rt: &TokenStream) -> TokenStream {
    let name = &def.name;
    let ident = Ident::new(name, Span::call_site());
    let (enc, len, merge) = oneof_arms(g, &ident, (quote!(self), quote!(*self)), rt);
    let mut names: Vec<(u32, &str)> = g
        .members
        .iter()
        .map(|m| (number_of(m.number), m.json_name.as_str()))
        .collect();
    names.sort_unstable();
    let field_name = field_names(names.into_iter());
    // A member this version does not know: the oneof's unknown variant, by its number, unless a
    // known member is already set.
    let fallback = quote! {
        _ => {
            if let super::#ident::Unknown(__u) = self {
                if __u.is_unset() {
                    *__u = #rt::UnknownMember::new(::std::string::ToString::to_string(&number), ::core::option::Option::None);
                }
            }
            r.skip(number, wire)
        }
    };
    // A oneof message is always written where it is a field (the member set says what it is).
    message_impl(
        &ident,
        name,
        field_name,
        enc,
        len,
        quote!(#(#merge)* #fallback),
        quote!(false),
        rt,
    )
}

/// `ProtoField` for a message type: a length-delimited field.
fn message_field(ident: &Ident, rt: &TokenStream) -> TokenStream {
    quote! {
        impl #rt::protobuf::ProtoField for super::#ident {
            const WIRE: #rt::protobuf::WireType = #rt::protobuf::WireType::Len;
            #[inline]
            fn encode_value(&self, buf: &mut ::std::vec::Vec<u8>) {
                #rt::protobuf::message_encode_value(self, buf)
            }
            #[inline]
            fn value_len(&self) -> usize {
                #rt::protobuf::message_value_len(self)
            }
            #[inline]
            fn merge_value(
                &mut self,
                r: &mut #rt::protobuf::Reader<'_>,
            ) -> ::core::result::Result<(), #rt::protobuf::DecodeError> {
                #rt::protobuf::message_merge_value(self, r)
            }
            #[inline]
            fn is_default(&self) -> bool {
                #rt::protobuf::Message::is_empty(self)
            }
        }
    }
}

/// `ProtoField` for an open enum: a varint of its number; an unknown number survives as
/// `Unrecognized` and is written back as that number.
fn enum_field(ident: &Ident, rt: &TokenStream) -> TokenStream {
    quote! {
        impl #rt::protobuf::ProtoField for super::#ident {
            const WIRE: #rt::protobuf::WireType = #rt::protobuf::WireType::Varint;
            const PACKED: bool = true;
            #[inline]
            fn encode_value(&self, buf: &mut ::std::vec::Vec<u8>) {
                #rt::protobuf::ProtoField::encode_value(&self.proto_number(), buf)
            }
            #[inline]
            fn value_len(&self) -> usize {
                #rt::protobuf::ProtoField::value_len(&self.proto_number())
            }
            #[inline]
            fn merge_value(
                &mut self,
                r: &mut #rt::protobuf::Reader<'_>,
            ) -> ::core::result::Result<(), #rt::protobuf::DecodeError> {
                let mut __n = 0i32;
                #rt::protobuf::ProtoField::merge_value(&mut __n, r)?;
                *self = Self::from_number(i64::from(__n));
                ::core::result::Result::Ok(())
            }
            #[inline]
            fn is_default(&self) -> bool {
                self.proto_number() == 0
            }
        }
        impl super::#ident {
            /// The number this value is written as in protobuf: its own, or for `Unrecognized`
            /// the number it arrived as (0 for a name that only JSON carried).
            #[inline]
            pub fn proto_number(&self) -> i32 {
                match self.number() {
                    ::core::option::Option::Some(__n) => __n,
                    ::core::option::Option::None => #rt::protobuf::enum_number(self.as_str()),
                }
            }
        }
    }
}
