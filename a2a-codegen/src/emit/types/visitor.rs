//! The `Deserialize` of every object-shaped type: structs, oneof enums and pure oneof types.
//!
//! What is written per type is the member table, the slots and the arms that fill them, and how
//! the value is built; the visitor around it, the key seed, const checks and oneof conflicts are
//! the runtime's (`codec::object`, `codec::Members`, `codec::const_member`, `codec::set_oneof`).

use super::*;

/// The member table of one object: every wire name (and alias) in order, and for each member the
/// indices its names have in it.
#[derive(Default)]
struct Table {
    names: Vec<String>,
}

/// What a visitor is made of as its members are added: the member table, the local slots the
/// arms fill, and the match arms by key.
#[derive(Default)]
struct Parts {
    table: Table,
    slots: Vec<TokenStream>,
    arms: Vec<TokenStream>,
}

impl Table {
    /// Adds a member's names; returns the `Key::Known(..)` pattern matching them.
    fn add(&mut self, rt: &TokenStream, json_name: &str, alias: Option<&String>) -> TokenStream {
        let indices: Vec<proc_macro2::Literal> = std::iter::once(json_name)
            .chain(alias.map(String::as_str))
            .map(|name| {
                self.names.push(name.to_owned());
                proc_macro2::Literal::usize_unsuffixed(self.names.len() - 1)
            })
            .collect();
        quote!(#rt::__private::Key::Known(#(#indices)|*))
    }
}

impl Cx<'_> {
    /// The `Deserialize` impl of an object: fields, const members and at most one oneof group.
    ///
    /// A struct passes the group it stores in a field as `oneof`; a pure oneof type (or a oneof
    /// enum decoded on its own) *is* the group, passed as `pure_group` with the enum's name.
    pub(super) fn emit_visitor(
        &self,
        type_name: &str,
        target: TokenStream,
        fields: &[Field],
        consts: &[ConstField],
        oneof: Option<&OneOfField>,
        pure_group: Option<(&OneOfGroup, &str)>,
    ) -> TokenStream {
        let rt = &self.opts.runtime;
        let extras = self.opts.preserve_unknown && pure_group.is_none();
        let group: Option<(&OneOfGroup, Ident)> = match (oneof, pure_group) {
            (Some(o), _) => Some((&o.group, ident(&o.enum_name))),
            (None, Some((g, enum_name))) => Some((g, ident(enum_name))),
            (None, None) => None,
        };
        // A oneof remembers the first member it does not know (in wire order): when no known
        // member is set, that is the member a newer writer used, kept as `Unknown`.
        let track_first = group.is_some();
        // A pure oneof with preservation on keeps that first member's value (it has no map of
        // unknown fields to keep it in otherwise).
        let keep_first_value = self.opts.preserve_unknown && pure_group.is_some();
        let keep_names = extras || track_first;

        let mut parts = Parts::default();
        self.field_arms(&mut parts, fields);
        self.const_arms(&mut parts, type_name, consts);
        if let Some((g, ename)) = &group {
            self.oneof_arms(&mut parts, type_name, g, ename);
        }
        if extras || keep_first_value {
            parts.slots.push(quote!(let mut __unknown = ::serde_json::Map::<::std::string::String, ::serde_json::Value>::new();));
        }
        if track_first {
            parts.slots.push(quote!(let mut __first_unknown: ::core::option::Option<::std::string::String> = ::core::option::Option::None;));
        }
        parts
            .arms
            .extend(self.unknown_arm(extras, keep_first_value, track_first));
        let read_members = self.read_members(&parts.arms);

        // Building the value.
        let group_value = group.as_ref().map(|(_, ename)| {
            let preserved = if extras || keep_first_value {
                quote!(::core::option::Option::Some(&mut __unknown))
            } else {
                quote!(::core::option::Option::None)
            };
            quote! {
                let __oneof = __oneof.unwrap_or_else(|| #ename::Unknown(#rt::UnknownMember::from_first(__first_unknown, #preserved)));
            }
        });
        let build = if pure_group.is_some() {
            quote!(::core::result::Result::Ok(__oneof))
        } else {
            self.build_struct(&target, fields, oneof, extras)
        };

        // A message with no members at all (`google.protobuf.Empty`, the result of calls that
        // return nothing) also reads from `null`: the official SDK's server answers a delete with
        // `"result": null`, and its client takes that and `{}` alike.
        let void = (fields.is_empty() && consts.is_empty() && group.is_none()).then(|| {
            quote!(
                const VOID: bool = true;
            )
        });
        let names = &parts.table.names;
        let slots = &parts.slots;
        quote! {
            impl<'de> ::serde::Deserialize<'de> for #target {
                fn deserialize<__D: ::serde::Deserializer<'de>>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                    #rt::__private::object(__deserializer)
                }
            }
            impl<'de> #rt::__private::Object<'de> for #target {
                const NAME: &'static str = #type_name;
                #void
                fn visit_map<__A: ::serde::de::MapAccess<'de>>(mut __map: __A) -> ::core::result::Result<Self, __A::Error> {
                    const __MEMBERS: #rt::__private::Members = #rt::__private::Members::new(&[#(#names),*], #keep_names);
                    #(#slots)*
                    #read_members
                    #group_value
                    #build
                }
            }
        }
    }

    /// An expression reading the next map value as `Option<RustType>`: JSON null is `None`
    /// (ProtoJSON: null means the field is absent), except for `Value`, where null is a value.
    fn read_value(&self, ty: &TypeRef) -> TokenStream {
        if matches!(self.resolve(ty), TypeRef::Any) {
            return quote!(::core::option::Option::Some(
                __map.next_value::<::serde_json::Value>()?
            ));
        }
        let wire = self.wire(ty);
        let wire_ty = &wire.ty;
        match &wire.convert {
            None => quote!(__map.next_value::<::core::option::Option<#wire_ty>>()?),
            Some(_) => {
                let conv = wire.apply(quote!(__w));
                quote!(__map.next_value::<::core::option::Option<#wire_ty>>()?.map(|__w| #conv))
            }
        }
    }

    /// Fields: one slot each, filled by its arm.
    fn field_arms(&self, parts: &mut Parts, fields: &[Field]) {
        let rt = &self.opts.runtime;
        for (i, f) in fields.iter().enumerate() {
            let key = parts.table.add(rt, &f.json_name, f.alias.as_ref());
            let slot = format_ident!("__f{}", i);
            let ty = self.rust_type(&f.ty);
            parts.slots.push(
                quote!(let mut #slot: ::core::option::Option<#ty> = ::core::option::Option::None;),
            );
            // The slot's type says what to read, unless a wire form must be converted.
            let read = match self.wire(&f.ty).convert {
                None if !matches!(self.resolve(&f.ty), TypeRef::Any) => quote!(__map.next_value()?),
                _ => self.read_value(&f.ty),
            };
            parts.arms.push(quote!(#key => #slot = #read,));
        }
    }

    /// Const members: checked as they are read, not stored. One may be absent: where it sits, the
    /// position already says what the object is (the official SDK defaults it too).
    fn const_arms(&self, parts: &mut Parts, type_name: &str, consts: &[ConstField]) {
        let rt = &self.opts.runtime;
        for c in consts {
            let key = parts.table.add(rt, &c.json_name, c.alias.as_ref());
            let json_name = &c.json_name;
            let expected = match &c.value {
                Literal::String(s) => quote!(Str(#s)),
                Literal::Bool(b) => quote!(Bool(#b)),
                Literal::Integer(n) => quote!(Int(#n)),
                Literal::Number(n) => quote!(Num(#n)),
            };
            parts.arms.push(quote! {
                #key => #rt::__private::const_member(&mut __map, #type_name, #json_name, #rt::__private::Const::#expected)?,
            });
        }
    }

    /// Oneof members: a second different known member is an error; the same one twice, last
    /// wins.
    fn oneof_arms(&self, parts: &mut Parts, type_name: &str, g: &OneOfGroup, ename: &Ident) {
        let rt = &self.opts.runtime;
        let names: Vec<String> = g
            .members
            .iter()
            .map(|m| format!("`{}`", m.json_name))
            .collect();
        let conflict = format!(
            "{type_name}: at most one of {} may be set",
            names.join(", ")
        );
        parts.slots.push(
            quote!(let mut __oneof: ::core::option::Option<#ename> = ::core::option::Option::None;),
        );
        for m in &g.members {
            let key = parts.table.add(rt, &m.json_name, m.alias.as_ref());
            let variant = ident(&m.variant);
            let read = self.read_value(&m.ty);
            parts.arms.push(quote! {
                #key => {
                    if let ::core::option::Option::Some(__v) = #read {
                        #rt::__private::set_oneof::<_, __A::Error>(&mut __oneof, #ename::#variant(__v), #ename::member_name, #conflict)?;
                    }
                }
            });
        }
    }

    /// The arm for names the type does not know, if it needs one: kept in the unknown-fields map
    /// (`extras`), kept only when first (`keep_first_value`), or only the first name noted.
    fn unknown_arm(
        &self,
        extras: bool,
        keep_first_value: bool,
        track_first: bool,
    ) -> Option<TokenStream> {
        let rt = &self.opts.runtime;
        let note_first = quote! {
            if __first_unknown.is_none() {
                __first_unknown = ::core::option::Option::Some(::std::clone::Clone::clone(&__name));
            }
        };
        let note_first = track_first.then_some(note_first);
        if extras {
            Some(quote! {
                #rt::__private::Key::Unknown(__name) => {
                    #note_first
                    __unknown.insert(__name, __map.next_value()?);
                }
            })
        } else if keep_first_value {
            Some(quote! {
                #rt::__private::Key::Unknown(__name) if __first_unknown.is_none() => {
                    __unknown.insert(::std::clone::Clone::clone(&__name), __map.next_value()?);
                    __first_unknown = ::core::option::Option::Some(__name);
                }
            })
        } else if track_first {
            Some(quote! {
                #rt::__private::Key::Unknown(__name) => {
                    #note_first
                    #rt::__private::skip(&mut __map)?;
                }
            })
        } else {
            None
        }
    }

    /// The loop over the members, each key matched against the arms.
    fn read_members(&self, arms: &[TokenStream]) -> TokenStream {
        let rt = &self.opts.runtime;
        if arms.is_empty() {
            quote! {
                while __map.next_key_seed(__MEMBERS)?.is_some() {
                    #rt::__private::skip(&mut __map)?;
                }
            }
        } else {
            quote! {
                while let ::core::option::Option::Some(__key) = __map.next_key_seed(__MEMBERS)? {
                    match __key {
                        #(#arms)*
                        _ => #rt::__private::skip(&mut __map)?,
                    }
                }
            }
        }
    }

    /// The struct built from the slots: each field by its presence, the oneof field, the
    /// unknown fields.
    fn build_struct(
        &self,
        target: &TokenStream,
        fields: &[Field],
        oneof: Option<&OneOfField>,
        extras: bool,
    ) -> TokenStream {
        let inits = fields.iter().enumerate().map(|(i, f)| {
            let fname = ident(&f.rust_name);
            let slot = format_ident!("__f{}", i);
            let value = match &f.presence {
                Presence::Required => quote!(#slot.unwrap_or_default()),
                Presence::Optional if self.is_collection(&f.ty) => {
                    quote!(#slot.unwrap_or_default())
                }
                Presence::Optional => quote!(#slot),
                Presence::Defaulted(lit) => {
                    let v = Self::default_value(lit);
                    quote!(#slot.unwrap_or_else(|| #v))
                }
            };
            quote!(#fname: #value,)
        });
        let oneof_init = oneof.map(|o| {
            let fname = ident(&o.rust_name);
            quote!(#fname: __oneof,)
        });
        let extras_init = extras.then(|| {
            let fname = ident(UNKNOWN_FIELDS);
            let protobuf = self
                .unknown_protobuf()
                .map(|(gate, pname)| quote!(#gate #pname: ::core::default::Default::default(),));
            quote!(#fname: __unknown, #protobuf)
        });
        quote!(::core::result::Result::Ok(#target { #(#inits)* #oneof_init #extras_init }))
    }
}
