//! The differ for types: structs and their fields, consts and oneofs, oneof members, tagged
//! unions.

use super::differ::Differ;
use super::side::{kind_name, literal, presence_name};
use super::{ChangeKind, Class, ItemKind};
use crate::ir::*;
use std::collections::BTreeSet;

impl Differ<'_> {
    pub(super) fn types(&mut self) {
        let (old, new) = (self.old.0, self.new.0);
        let ids: BTreeSet<&TypeId> = old.types.keys().chain(new.types.keys()).collect();
        for id in ids {
            match (old.types.get(id), new.types.get(id)) {
                (Some(a), None) => self.push(
                    ItemKind::Type,
                    id,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!("{} `{id}` removed", kind_name(&a.kind)),
                ),
                (None, Some(b)) => self.push(
                    ItemKind::Type,
                    id,
                    ChangeKind::Added,
                    Class::Compatible,
                    format!("new {} `{id}`", kind_name(&b.kind)),
                ),
                (Some(a), Some(b)) => self.type_def(id, &a.kind, &b.kind),
                (None, None) => {}
            }
        }
    }

    pub(super) fn type_def(&mut self, id: &str, a: &TypeKind, b: &TypeKind) {
        match (a, b) {
            (TypeKind::Struct(a), TypeKind::Struct(b)) => self.structs(id, a, b),
            (TypeKind::Enum(a), TypeKind::Enum(b)) => self.enums(id, a, b),
            (TypeKind::OneOf(a), TypeKind::OneOf(b)) => self.members(id, a, b),
            (TypeKind::Tagged(a), TypeKind::Tagged(b)) => self.tagged(id, a, b),
            (TypeKind::Alias(a), TypeKind::Alias(b)) => {
                if let Some((ra, rb)) = self.type_changed(a, b) {
                    let detail = format!(
                        "type alias of `{ra}` -> `{rb}`{}",
                        self.integer_wire(a, b).unwrap_or_default()
                    );
                    self.push(
                        ItemKind::Type,
                        id,
                        ChangeKind::Changed,
                        Class::Breaking,
                        detail,
                    );
                }
                self.encoding(ItemKind::Type, id, a, b);
            }
            _ => self.push(
                ItemKind::Type,
                id,
                ChangeKind::Changed,
                Class::Breaking,
                format!(
                    "{} -> {}: a different kind of Rust item",
                    kind_name(a),
                    kind_name(b)
                ),
            ),
        }
    }

    pub(super) fn structs(&mut self, id: &str, a: &StructDef, b: &StructDef) {
        for f in &a.fields {
            let path = format!("{id}.{}", f.rust_name);
            match b.fields.iter().find(|g| g.rust_name == f.rust_name) {
                None => self.push(
                    ItemKind::Field,
                    path,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!(
                        "field `{}: {}` (JSON `{}`) removed",
                        f.rust_name,
                        self.old.field_type(f),
                        f.json_name
                    ),
                ),
                Some(g) => self.field(&path, f, g),
            }
        }
        for g in &b.fields {
            if a.fields.iter().any(|f| f.rust_name == g.rust_name) {
                continue;
            }
            let path = format!("{id}.{}", g.rust_name);
            let decl = format!(
                "`{}: {}` (JSON `{}`{})",
                g.rust_name,
                self.new.field_type(g),
                g.json_name,
                self.new.wide_note(&g.ty)
            );
            let (class, detail) = if g.presence == Presence::Required {
                (
                    Class::Breaking,
                    format!(
                        "new required field {decl}: struct literals must set it (those naming \
                         every field stop compiling; `..Default::default()` leaves its default, \
                         which is then always written), and peers on the old schema do not send \
                         it, so their messages decode with its default"
                    ),
                )
            } else {
                (
                    Class::Compatible,
                    format!(
                        "new {} field {decl}; struct literals ending in `..Default::default()` \
                         keep compiling; peers on the old schema do not send it (it reads as \
                         absent) and skip it as an unknown member when it is sent",
                        presence_name(&g.presence)
                    ),
                )
            };
            self.push(ItemKind::Field, path, ChangeKind::Added, class, detail);
        }
        self.consts(id, &a.consts, &b.consts);
        self.oneof_field(id, a.oneof.as_ref(), b.oneof.as_ref());
    }

    pub(super) fn field(&mut self, path: &str, f: &Field, g: &Field) {
        if f.json_name != g.json_name {
            let accepts =
                |x: &Field, name: &str| x.json_name == name || x.alias.as_deref() == Some(name);
            let theirs = if accepts(g, &f.json_name) {
                "the new code still accepts the old name".to_string()
            } else {
                format!(
                    "peers on the old schema send `{}`, which the new code ignores as an unknown \
                     member (the field reads as absent)",
                    f.json_name
                )
            };
            let ours = if accepts(f, &g.json_name) {
                "code built from the old schema accepts the new name".to_string()
            } else {
                format!(
                    "the new code writes `{}`, which code built from the old schema ignores",
                    g.json_name
                )
            };
            // Both sides accepting both names leaves only what is written.
            let class = if accepts(g, &f.json_name) && accepts(f, &g.json_name) {
                Class::Behaviour
            } else {
                Class::Breaking
            };
            self.push(
                ItemKind::Field,
                path,
                ChangeKind::Changed,
                class,
                format!(
                    "wire name `{}` -> `{}`: {theirs}, and {ours}",
                    f.json_name, g.json_name
                ),
            );
        }
        if let Some((ra, rb)) = self.type_changed(&f.ty, &g.ty) {
            let detail = self.type_change_detail(&f.ty, &g.ty, &ra, &rb);
            self.push(
                ItemKind::Field,
                path,
                ChangeKind::Changed,
                Class::Breaking,
                detail,
            );
        }
        self.encoding(ItemKind::Field, path, &f.ty, &g.ty);
        if f.presence != g.presence {
            let (was, now) = (presence_name(&f.presence), presence_name(&g.presence));
            let (ta, tb) = (self.old.field_type(f), self.new.field_type(g));
            if self.old.is_option(f) != self.new.is_option(g) {
                self.push(
                    ItemKind::Field,
                    path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!("{was} -> {now}: Rust type `{ta}` -> `{tb}`"),
                );
            } else {
                self.push(
                    ItemKind::Field,
                    path,
                    ChangeKind::Changed,
                    Class::Behaviour,
                    format!(
                        "{was} -> {now}: Rust type stays `{tb}`; now {}",
                        self.new.presence_semantics(g)
                    ),
                );
            }
        }
    }

    pub(super) fn consts(&mut self, id: &str, a: &[ConstField], b: &[ConstField]) {
        // The generated JSON Schema (`json_schema()`, behind the schemars feature) is the only
        // output that `required` changes: decoding accepts every const member absent.
        let schema_note = "decoding accepts it absent either way (the position already says what \
                           the object is), so only the generated JSON Schema (`json_schema()`) \
                           changes";
        for c in a {
            let path = format!("{id}.{}", c.json_name);
            let value = literal(&c.value);
            match b.iter().find(|d| d.json_name == c.json_name) {
                None => self.push(
                    ItemKind::Const,
                    path,
                    ChangeKind::Removed,
                    Class::Behaviour,
                    format!(
                        "constant member `{}` = {value} removed: no longer written on encode or \
                         checked on decode",
                        c.json_name
                    ),
                ),
                Some(d) => {
                    if c.value != d.value {
                        let union = self.new.union_tagged_by(id, &d.json_name);
                        let consequence = match union {
                            Some(u) => format!(
                                "where `{id}` is read directly, messages carrying the old value \
                                 no longer decode; as the tag of `{u}`, the old value decodes to \
                                 `{u}::Unknown`"
                            ),
                            None => "messages carrying the old value no longer decode".into(),
                        };
                        self.push(
                            ItemKind::Const,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!("value {value} -> {}: {consequence}", literal(&d.value)),
                        );
                    }
                    match (c.required, d.required) {
                        (false, true) => self.push(
                            ItemKind::Const,
                            &path,
                            ChangeKind::Changed,
                            Class::Behaviour,
                            format!("now required: {schema_note}, listing it in `required`"),
                        ),
                        (true, false) => self.push(
                            ItemKind::Const,
                            &path,
                            ChangeKind::Changed,
                            Class::Behaviour,
                            format!(
                                "no longer required: {schema_note}, dropping it from `required`"
                            ),
                        ),
                        _ => {}
                    }
                }
            }
        }
        for d in b {
            if a.iter().any(|c| c.json_name == d.json_name) {
                continue;
            }
            let path = format!("{id}.{}", d.json_name);
            let value = literal(&d.value);
            let required = if d.required { "required " } else { "" };
            self.push(
                ItemKind::Const,
                path,
                ChangeKind::Added,
                Class::Behaviour,
                format!(
                    "new {required}constant member `{}` = {value}: now written on encode and \
                     checked when present; messages from peers on the old schema, which leave it \
                     out, still decode (a const member may be absent)",
                    d.json_name
                ),
            );
        }
    }

    pub(super) fn oneof_field(&mut self, id: &str, a: Option<&OneOfField>, b: Option<&OneOfField>) {
        match (a, b) {
            (None, None) => {}
            (None, Some(b)) => self.push(
                ItemKind::Oneof,
                format!("{id}.{}", b.rust_name),
                ChangeKind::Added,
                Class::Breaking,
                format!(
                    "new oneof field `{}: {}`: struct literals must set it (those naming every \
                     field stop compiling; `..Default::default()` leaves it `Unknown`, unset, \
                     which writes none of its members), and messages from peers on the old \
                     schema, which have none of its members, decode with it `Unknown` (unset)",
                    b.rust_name, b.enum_name
                ),
            ),
            (Some(a), None) => self.push(
                ItemKind::Oneof,
                format!("{id}.{}", a.rust_name),
                ChangeKind::Removed,
                Class::Breaking,
                format!(
                    "oneof field `{}: {}` removed (with its enum)",
                    a.rust_name, a.enum_name
                ),
            ),
            (Some(a), Some(b)) => {
                if a.rust_name != b.rust_name || a.enum_name != b.enum_name {
                    self.push(
                        ItemKind::Oneof,
                        format!("{id}.{}", a.rust_name),
                        ChangeKind::Changed,
                        Class::Breaking,
                        format!(
                            "renamed: `{}: {}` -> `{}: {}`",
                            a.rust_name, a.enum_name, b.rust_name, b.enum_name
                        ),
                    );
                }
                self.members(&a.enum_name, &a.group, &b.group);
            }
        }
    }

    pub(super) fn members(&mut self, enum_name: &str, a: &OneOfGroup, b: &OneOfGroup) {
        for m in &a.members {
            let path = format!("{enum_name}::{}", m.variant);
            match b.members.iter().find(|n| n.variant == m.variant) {
                None => self.push(
                    ItemKind::Member,
                    path,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!(
                        "variant `{}({})` (JSON `{}`) removed: code naming it stops compiling, \
                         and messages that set it now decode to `{enum_name}::Unknown`",
                        m.variant,
                        self.old.rust_type(&m.ty),
                        m.json_name
                    ),
                ),
                Some(n) => {
                    if m.json_name != n.json_name {
                        self.push(
                            ItemKind::Member,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!(
                                "wire name `{}` -> `{}`: peers on the old schema send `{}`, which \
                                 the new code decodes to `{enum_name}::Unknown`, and the new code \
                                 writes `{}`, which code built from the old schema decodes to \
                                 `Unknown`",
                                m.json_name, n.json_name, m.json_name, n.json_name
                            ),
                        );
                    }
                    if let Some((ra, rb)) = self.type_changed(&m.ty, &n.ty) {
                        let detail = self.type_change_detail(&m.ty, &n.ty, &ra, &rb);
                        self.push(
                            ItemKind::Member,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            detail,
                        );
                    }
                    self.encoding(ItemKind::Member, &path, &m.ty, &n.ty);
                }
            }
        }
        for n in &b.members {
            if a.members.iter().any(|m| m.variant == n.variant) {
                continue;
            }
            self.push(
                ItemKind::Member,
                format!("{enum_name}::{}", n.variant),
                ChangeKind::Added,
                Class::Breaking,
                format!(
                    "new variant `{}({})` (JSON `{}`): exhaustive matches stop compiling (oneof \
                     enums are not #[non_exhaustive]); code built from the old schema decodes a \
                     message that sets it to `Unknown`",
                    n.variant,
                    self.new.rust_type(&n.ty),
                    n.json_name
                ),
            );
        }
    }

    pub(super) fn tagged(&mut self, id: &str, a: &TaggedUnion, b: &TaggedUnion) {
        if a.tag != b.tag {
            self.push(
                ItemKind::Type,
                id,
                ChangeKind::Changed,
                Class::Breaking,
                format!(
                    "tag member `{}` -> `{}`: peers on the old schema name the variant with `{}`, \
                     which the new code ignores, so it picks the variant by shape (the one whose \
                     required members are present), and fails when none fits or two tie",
                    a.tag, b.tag, a.tag
                ),
            );
        }
        for v in &a.variants {
            let path = format!("{id}::{}", v.variant);
            match b.variants.iter().find(|w| w.variant == v.variant) {
                None => self.push(
                    ItemKind::Member,
                    path,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!(
                        "variant `{}({})` (`{}`: \"{}\") removed: code naming it stops \
                         compiling, and objects with that tag now decode to `{id}::Unknown`",
                        v.variant, v.ty, a.tag, v.value
                    ),
                ),
                Some(w) => {
                    if v.value != w.value {
                        self.push(
                            ItemKind::Member,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!(
                                "tag value \"{}\" -> \"{}\": peers on the old schema send \
                                 \"{}\", which the new code decodes to `{id}::Unknown`, and code \
                                 built from the old schema decodes the new value to `Unknown`",
                                v.value, w.value, v.value
                            ),
                        );
                    }
                    if v.ty != w.ty {
                        self.push(
                            ItemKind::Member,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!("type `{}` -> `{}`", v.ty, w.ty),
                        );
                    }
                }
            }
        }
        for w in &b.variants {
            if a.variants.iter().any(|v| v.variant == w.variant) {
                continue;
            }
            self.push(
                ItemKind::Member,
                format!("{id}::{}", w.variant),
                ChangeKind::Added,
                Class::Breaking,
                format!(
                    "new variant `{}({})` (`{}`: \"{}\"): exhaustive matches stop compiling \
                     (tagged enums are not #[non_exhaustive]); code built from the old schema \
                     decodes an object with the new tag to `Unknown`",
                    w.variant, w.ty, b.tag, w.value
                ),
            );
        }
    }
}
