//! A compiled proto's descriptors to the IR: the same model the JSON Schema route gives for the
//! same facts (`tests/tests/proto.rs` proves it on the A2A v1.0.1 proto and `spec/v1`).
//!
//! | proto | IR |
//! |---|---|
//! | message (top level, declaration order of fields) | [`TypeKind::Struct`]; a message that is nothing but one oneof is a [`TypeKind::OneOf`] |
//! | `oneof` (at most one per message) | [`OneOfField`] named after it (`Part` + `content` -> `PartContent`) |
//! | proto3 `optional` (a synthetic oneof) | an ordinary field: [`Presence::Optional`], as every field without REQUIRED |
//! | `[(google.api.field_behavior) = REQUIRED]`, proto2 `required` | [`Presence::Required`] |
//! | `repeated T`, `map<string, T>` | [`TypeRef::List`], [`TypeRef::Map`] |
//! | enum | [`TypeKind::Enum`]: wire strings are the value names (`TASK_STATE_WORKING`), variants drop the shared prefix as for a JSON Schema enum, numbers are the proto's |
//! | `google.protobuf.Struct`, `Value`, `Timestamp`, `Empty` | the types `Struct` (a JSON object), `Value` (any JSON value), `Timestamp` (RFC 3339) and `Empty` (no fields), added when used, as `spec/v1` spells them |
//! | `string`, `bool`, `bytes`, `int32`/`sint32`/`sfixed32`, `float`/`double` | [`TypeRef::String`], `Bool`, `Bytes`, `Int32`, `Number` |
//! | the field's `json_name` (lowerCamelCase), its proto name | the wire name, and the alias accepted on decode when the two differ |
//! | `[deprecated = true]` on a field | `deprecated` |
//! | leading comments | rustdoc (AIP-192 `(-- ... --)` internal comments and `protolint:` directives left out) |
//! | rpcs of the service, their `google.api.http` rules | [`Rpc`]s, merged with `methods.toml` by [`super::methods`] |
//!
//! Anything else is a diagnostic naming the file, line and declaration: groups, nested
//! declarations, extensions, custom options the generator does not know, a second oneof, map
//! keys other than strings, unsigned or 64-bit integers, well-known types other than the four,
//! types from other files, client streaming.

use super::methods::Rpc;
use super::Compiled;
use crate::diag::Diagnostics;
use crate::ir::*;
use crate::load::Source;
use crate::naming;
use protox::prost_reflect::prost_types::source_code_info::Location;
use protox::prost_reflect::{
    Cardinality, DynamicMessage, EnumDescriptor, ExtensionDescriptor, FieldDescriptor, Kind,
    MessageDescriptor, MethodDescriptor, ServiceDescriptor, Value,
};
use std::collections::{BTreeMap, HashMap};

/// What a proto lowers to, before the method table is merged in.
#[derive(Clone, Debug)]
pub(crate) struct Lowered {
    /// Every named type.
    pub(crate) types: BTreeMap<TypeId, TypeDef>,
    /// The rpcs of the file's service, in declaration order.
    pub(crate) rpcs: Vec<Rpc>,
}

/// The generated module's docs: the package and the file.
pub(crate) fn module_doc(source: &Source<Compiled>) -> String {
    match source.value.file.package_name() {
        "" => format!("Types of `{}`.", source.label),
        package => format!(
            "Types of the protobuf package `{package}` (`{}`).",
            source.label
        ),
    }
}

/// The well-known types A2A uses, each becoming a type of the model named as `spec/v1` names it.
const WELL_KNOWN: &[(&str, &str, &str)] = &[
    (
        "google.protobuf.Struct",
        "Struct",
        "Free-form JSON object (google.protobuf.Struct).",
    ),
    (
        "google.protobuf.Value",
        "Value",
        "Any JSON value, null included (google.protobuf.Value).",
    ),
    (
        "google.protobuf.Timestamp",
        "Timestamp",
        "Instant in time as an RFC 3339 string (google.protobuf.Timestamp).",
    ),
    (
        "google.protobuf.Empty",
        "Empty",
        "Object with no members (google.protobuf.Empty).",
    ),
];

/// Extensions the generator reads, or knows to be without meaning for the JSON it generates
/// code for (hints for client libraries of other languages); any other custom option is an
/// error, as an unknown JSON Schema keyword is.
const FIELD_BEHAVIOR: &str = "google.api.field_behavior";
const HTTP: &str = "google.api.http";
const IGNORED_METHOD_OPTIONS: &[&str] = &["google.api.method_signature"];
const IGNORED_SERVICE_OPTIONS: &[&str] = &[
    "google.api.default_host",
    "google.api.oauth_scopes",
    "google.api.api_version",
];

/// Lowers the compiled proto. Every problem goes to `diags`, with the file and line.
pub(crate) fn lower(source: &Source<Compiled>, diags: &mut Diagnostics) -> Lowered {
    let file = &source.value.file;
    let mut locations = HashMap::new();
    if let Some(info) = &file.file_descriptor_proto().source_code_info {
        for loc in &info.location {
            locations
                .entry(loc.path.clone())
                .or_insert_with(|| loc.clone());
        }
    }
    let pool = source.value.pool();
    let mut lw = Lowerer {
        file: file.name(),
        label: &source.label,
        diags,
        locations,
        field_behavior: pool.get_extension_by_name(FIELD_BEHAVIOR),
        http: pool.get_extension_by_name(HTTP),
        types: BTreeMap::new(),
        well_known: BTreeMap::new(),
    };
    lw.check_file(source.value.file.clone());
    for message in file.messages() {
        if let Some(def) = lw.message(&message) {
            lw.insert(def);
        }
    }
    for e in file.enums() {
        if let Some(def) = lw.enumeration(&e) {
            lw.insert(def);
        }
    }
    let mut services = file.services();
    let rpcs = match services.next() {
        Some(service) => lw.service(&service),
        None => Vec::new(),
    };
    for extra in services {
        let at = lw.location(extra.path());
        lw.diags
            .push(
                lw.label,
                at,
                format!("a second service, `{}`", extra.name()),
            )
            .help("a2a-codegen reads the rpcs of one service (A2A has one, A2AService); move the other service to a proto of its own");
    }
    lw.add_well_known();
    Lowered {
        types: lw.types,
        rpcs,
    }
}

struct Lowerer<'a> {
    /// The file's name in the pool: declarations of other files are refused.
    file: &'a str,
    label: &'a str,
    diags: &'a mut Diagnostics,
    /// Source info by descriptor path: lines and comments.
    locations: HashMap<Vec<i32>, Location>,
    field_behavior: Option<ExtensionDescriptor>,
    http: Option<ExtensionDescriptor>,
    types: BTreeMap<TypeId, TypeDef>,
    /// The well-known types used, with where they were first used.
    well_known: BTreeMap<&'static str, (&'static str, Vec<i32>)>,
}

impl Lowerer<'_> {
    /// `line L, column C` (1-based) of a declaration, from the source info.
    fn location(&self, path: &[i32]) -> String {
        match self.locations.get(path).map(|l| l.span.as_slice()) {
            Some([line, column, ..]) => format!("line {}, column {}", line + 1, column + 1),
            _ => String::new(),
        }
    }

    /// A declaration's leading comment as rustdoc text.
    fn doc(&self, path: &[i32]) -> Option<String> {
        self.locations
            .get(path)
            .and_then(|l| l.leading_comments.as_deref())
            .and_then(clean_comment)
    }

    fn error(&mut self, path: &[i32], message: impl Into<String>) -> &mut crate::diag::Diagnostic {
        let at = self.location(path);
        self.diags.push(self.label, at, message)
    }

    fn check_file(&mut self, file: protox::prost_reflect::FileDescriptor) {
        // proto2 is read as proto3 is: what it adds is refused where it is met (groups,
        // defaults, extension ranges), and its `required` label is REQUIRED.
        for ext in file.extensions() {
            self.error(
                ext.path(),
                format!("`extend {}` declares the extension `{}`", ext.containing_message().full_name(), ext.name()),
            )
            .help("a2a-codegen does not read extensions: the data model is the file's messages, enums and service; remove the extension");
        }
    }

    fn insert(&mut self, def: TypeDef) {
        self.types.insert(def.name.clone(), def);
    }

    /// Reports every custom option of a declaration except those in `allowed` (read or known to
    /// be without meaning here), and returns the allowed ones that are set.
    fn custom_options(
        &mut self,
        options: &DynamicMessage,
        path: &[i32],
        what: &str,
        allowed: &[&str],
    ) -> Vec<(ExtensionDescriptor, Value)> {
        let mut kept = Vec::new();
        for (ext, value) in options.extensions() {
            if allowed.contains(&ext.full_name()) {
                kept.push((ext.clone(), value.clone()));
                continue;
            }
            self.error(path, format!("{what} sets the custom option `({})`", ext.full_name()))
                .help(format!(
                    "a2a-codegen reads (google.api.field_behavior) on fields and (google.api.http) on rpcs, and \
                     knows {} to be client-library hints; it cannot tell what another option means for the \
                     JSON on the wire, so remove it or extend the generator",
                    IGNORED_METHOD_OPTIONS
                        .iter()
                        .chain(IGNORED_SERVICE_OPTIONS)
                        .map(|o| format!("({o})"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
        }
        kept
    }

    fn message(&mut self, m: &MessageDescriptor) -> Option<TypeDef> {
        let name = m.name().to_string();
        // A group's type is a nested message too: the group itself is reported at its field.
        let groups: Vec<String> = m
            .fields()
            .filter(|f| f.is_group())
            .filter_map(|f| f.kind().as_message().map(|g| g.full_name().to_string()))
            .collect();
        for child in m
            .child_messages()
            .filter(|c| !c.is_map_entry() && !groups.iter().any(|g| g == c.full_name()))
        {
            self.error(child.path(), format!("`{}` is declared inside `{name}`", child.name()))
                .help("move it to the top level of the file: a2a-codegen names a type by its message name alone");
        }
        for child in m.child_enums() {
            self.error(child.path(), format!("the enum `{}` is declared inside `{name}`", child.name()))
                .help("move it to the top level of the file: a2a-codegen names a type by its enum name alone");
        }
        for ext in m.child_extensions() {
            self.error(
                ext.path(),
                format!("`{name}` declares the extension `{}`", ext.name()),
            )
            .help("a2a-codegen does not read extensions; remove it");
        }
        if m.extension_ranges().len() > 0 {
            self.error(
                m.path(),
                format!("`{name}` declares extension ranges (`extensions ...`)"),
            )
            .help("a2a-codegen does not read extensions; remove the range");
        }
        self.custom_options(&m.options(), m.path(), &format!("`{name}`"), &[]);
        let oneofs: Vec<_> = m.oneofs().filter(|o| !o.is_synthetic()).collect();
        for (i, o) in oneofs.iter().enumerate() {
            self.custom_options(
                &o.options(),
                o.path(),
                &format!("the oneof `{name}.{}`", o.name()),
                &[],
            );
            if i > 0 {
                self.error(o.path(), format!("`{name}` has a second oneof, `{}`", o.name()))
                    .help(format!(
                        "a2a-codegen models one oneof per message (A2A has no message with two); move `{}` \
                         and its members into a message of its own",
                        o.name()
                    ));
            }
        }
        let group = oneofs.first();
        let mut fields = Vec::new();
        let mut members = Vec::new();
        // Declaration order (prost-reflect lists fields by number; the last element of a field's
        // source path is its index in the message as written).
        let mut declared: Vec<FieldDescriptor> = m.fields().collect();
        declared.sort_by_key(|f| f.path().last().copied());
        for f in declared {
            let oneof = f.containing_oneof().filter(|o| !o.is_synthetic());
            let in_group = oneof.as_ref().is_some_and(|o| Some(o) == group);
            if oneof.is_some() && !in_group {
                continue; // a member of a second oneof, reported above
            }
            let required = self.field_options(&f);
            if f.field_descriptor_proto().default_value.is_some() {
                self.error(f.path(), format!("`{name}.{}` has a proto2 default value", f.name()))
                    .help("a2a-codegen gives every field the ProtoJSON zero value as its default; remove `[default = ...]`");
            }
            let Some(ty) = self.field_type(&f) else {
                continue;
            };
            let json_name = f.json_name().to_string();
            let alias = (f.name() != json_name).then(|| f.name().to_string());
            let doc = self.doc(f.path());
            let deprecated = f
                .field_descriptor_proto()
                .options
                .as_ref()
                .is_some_and(|o| o.deprecated());
            if in_group {
                if required {
                    self.error(f.path(), format!("the oneof member `{name}.{}` is REQUIRED", f.name()))
                        .help("a oneof member is present only when chosen; remove the REQUIRED field behavior");
                }
                members.push(OneOfMember {
                    variant: naming::pascal_case(&json_name),
                    json_name,
                    alias,
                    ty,
                    doc,
                    deprecated,
                    number: Some(f.number()),
                });
                continue;
            }
            fields.push(Field {
                rust_name: naming::snake_case(f.name()),
                json_name,
                alias,
                ty,
                presence: if required {
                    Presence::Required
                } else {
                    Presence::Optional
                },
                doc,
                deprecated,
                number: Some(f.number()),
                pointer: self.location(f.path()),
            });
        }
        let kind = match group {
            None => TypeKind::Struct(StructDef {
                fields,
                consts: Vec::new(),
                oneof: None,
            }),
            Some(o) => {
                let group = OneOfGroup {
                    name: Some(o.name().to_string()),
                    members,
                };
                if fields.is_empty() {
                    TypeKind::OneOf(group)
                } else {
                    TypeKind::Struct(StructDef {
                        fields,
                        consts: Vec::new(),
                        oneof: Some(OneOfField {
                            rust_name: naming::snake_case(o.name()),
                            enum_name: format!("{name}{}", naming::pascal_case(o.name())),
                            group,
                        }),
                    })
                }
            }
        };
        Some(TypeDef {
            doc: self.doc(m.path()),
            pointer: self.location(m.path()),
            name,
            kind,
        })
    }

    /// Checks a field's options and says whether it is REQUIRED: marked
    /// `(google.api.field_behavior) = REQUIRED`, or proto2 `required`.
    ///
    /// The extension is read from the options as prost-reflect decodes them against the pool
    /// (a `DynamicMessage` whose extension fields are typed by the compiled field_behavior.proto),
    /// so the value is the enum list the compiler built, with no wire bytes decoded here.
    fn field_options(&mut self, f: &FieldDescriptor) -> bool {
        let what = format!("`{}.{}`", f.parent_message().name(), f.name());
        let set = self.custom_options(&f.options(), f.path(), &what, &[FIELD_BEHAVIOR]);
        let required_number = self
            .field_behavior
            .as_ref()
            .and_then(|ext| match ext.kind() {
                Kind::Enum(e) => e.get_value_by_name("REQUIRED").map(|v| v.number()),
                _ => None,
            });
        let marked = set.iter().any(|(_, value)| {
            value
                .as_list()
                .is_some_and(|l| l.iter().any(|v| v.as_enum_number() == required_number))
        });
        marked || f.cardinality() == Cardinality::Required
    }

    /// The IR type of a field (list and map included); `None` after a diagnostic.
    fn field_type(&mut self, f: &FieldDescriptor) -> Option<TypeRef> {
        let what = format!("`{}.{}`", f.parent_message().name(), f.name());
        if f.is_group() {
            self.error(f.path(), format!("{what} is a proto2 group"))
                .help("declare the group's fields in a message of their own and use that message as the field's type");
            return None;
        }
        if f.is_map() {
            let Kind::Message(entry) = f.kind() else {
                return None;
            };
            let key = entry.map_entry_key_field();
            if key.kind() != Kind::String {
                self.error(
                    f.path(),
                    format!("{what} is a map whose keys are not strings"),
                )
                .help("the generated code has string-keyed maps only; use map<string, ...>");
                return None;
            }
            let value = entry.map_entry_value_field();
            let ty = self.element_type(&value.kind(), f, &what)?;
            return Some(TypeRef::Map(Box::new(ty)));
        }
        let ty = self.element_type(&f.kind(), f, &what)?;
        Some(if f.is_list() {
            TypeRef::List(Box::new(ty))
        } else {
            ty
        })
    }

    fn element_type(&mut self, kind: &Kind, f: &FieldDescriptor, what: &str) -> Option<TypeRef> {
        Some(match kind {
            Kind::String => TypeRef::String,
            Kind::Bool => TypeRef::Bool,
            Kind::Bytes => TypeRef::Bytes,
            Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => TypeRef::Int32,
            Kind::Float | Kind::Double => TypeRef::Number,
            // ProtoJSON writes them as decimal strings and reads strings or numbers.
            Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => TypeRef::Int64,
            Kind::Uint64 | Kind::Fixed64 => TypeRef::UInt64,
            Kind::Uint32 | Kind::Fixed32 => {
                self.error(f.path(), format!("{what} is an unsigned 32-bit integer ({})", kind_name(kind)))
                    .help("a2a-codegen has no type for it yet (int32 holds -2^31..2^31-1); use int32 where the range allows, or extend the generator");
                return None;
            }
            Kind::Message(m) => {
                return self.named(
                    m.full_name(),
                    m.parent_file().name(),
                    m.parent_message().is_some(),
                    f.path(),
                    what,
                )
            }
            Kind::Enum(e) => return self.enum_ref(e, f.path(), what),
        })
    }

    fn enum_ref(&mut self, e: &EnumDescriptor, path: &[i32], what: &str) -> Option<TypeRef> {
        self.named(
            e.full_name(),
            e.parent_file().name(),
            e.parent_message().is_some(),
            path,
            what,
        )
    }

    /// A message or enum used by a field or an rpc: one of this file's top-level declarations,
    /// or one of the well-known types the model has.
    fn named(
        &mut self,
        full_name: &str,
        file: &str,
        nested: bool,
        path: &[i32],
        what: &str,
    ) -> Option<TypeRef> {
        if let Some((_, name, _)) = WELL_KNOWN.iter().find(|(n, _, _)| *n == full_name) {
            self.well_known
                .entry(name)
                .or_insert_with(|| (full_name_static(full_name), path.to_vec()));
            return Some(TypeRef::Named(name.to_string()));
        }
        if full_name.starts_with("google.protobuf.") {
            self.error(path, format!("{what} uses `{full_name}`, a well-known type a2a-codegen has no type for"))
                .help("the model has google.protobuf.Struct, Value, Timestamp and Empty (what A2A uses); use one of them, or extend the generator");
            return None;
        }
        if file != self.file {
            let label = self.label;
            self.error(path, format!("{what} uses `{full_name}`, declared in {file}"))
                .help(format!(
                    "a2a-codegen lowers the declarations of one proto file; move `{full_name}` into {label}"
                ));
            return None;
        }
        if nested {
            return None; // reported at its declaration
        }
        let name = full_name.rsplit('.').next().unwrap_or(full_name);
        Some(TypeRef::Named(name.to_string()))
    }

    /// Adds the well-known types used; a declaration of the same name is an error.
    fn add_well_known(&mut self) {
        let used = std::mem::take(&mut self.well_known);
        for (name, (full_name, path)) in used {
            let doc = WELL_KNOWN
                .iter()
                .find(|(n, _, _)| *n == full_name)
                .map(|(_, _, doc)| doc.to_string());
            if let Some(taken) = self.types.get(name) {
                let at = taken.pointer.clone();
                self.diags
                    .push(self.label, at, format!("`{name}` is declared here, and the file also uses `{full_name}`"))
                    .help(format!("a2a-codegen names {full_name} `{name}`, as the A2A JSON Schema does; rename the declaration"));
                continue;
            }
            let kind = match name {
                "Struct" => TypeKind::Alias(TypeRef::JsonObject),
                "Value" => TypeKind::Alias(TypeRef::Any),
                "Timestamp" => TypeKind::Alias(TypeRef::Timestamp),
                _ => TypeKind::Struct(StructDef::default()),
            };
            self.insert(TypeDef {
                name: name.to_string(),
                doc,
                pointer: self.location(&path),
                kind,
            });
        }
    }

    fn enumeration(&mut self, e: &EnumDescriptor) -> Option<TypeDef> {
        let name = e.name().to_string();
        self.custom_options(&e.options(), e.path(), &format!("the enum `{name}`"), &[]);
        let mut values: Vec<(String, i32)> = Vec::new();
        for v in e.values() {
            self.custom_options(
                &v.options(),
                v.path(),
                &format!("`{name}.{}`", v.name()),
                &[],
            );
            if let Some((other, _)) = values.iter().find(|(_, n)| *n == v.number()) {
                self.error(v.path(), format!("`{}` and `{other}` of `{name}` share the number {}", v.name(), v.number()))
                    .help("a2a-codegen gives each number one name on the wire; remove the alias (and `allow_alias`)");
                continue;
            }
            values.push((v.name().to_string(), v.number()));
        }
        // The IR keeps values in number order.
        values.sort_by_key(|(_, n)| *n);
        let wires: Vec<String> = values.iter().map(|(w, _)| w.clone()).collect();
        let variants = naming::enum_variant_names(&wires);
        let values = values
            .into_iter()
            .zip(variants)
            .map(|((wire, number), variant)| EnumValue {
                wire,
                variant,
                number,
            })
            .collect();
        Some(TypeDef {
            doc: self.doc(e.path()),
            pointer: self.location(e.path()),
            name,
            kind: TypeKind::Enum(EnumDef { values }),
        })
    }

    fn service(&mut self, s: &ServiceDescriptor) -> Vec<Rpc> {
        self.custom_options(
            &s.options(),
            s.path(),
            &format!("the service `{}`", s.name()),
            IGNORED_SERVICE_OPTIONS,
        );
        s.methods().filter_map(|m| self.rpc(&m)).collect()
    }

    fn rpc(&mut self, m: &MethodDescriptor) -> Option<Rpc> {
        let what = format!("the rpc `{}`", m.name());
        if m.is_client_streaming() {
            self.error(m.path(), format!("{what} streams its requests (client streaming)"))
                .help("A2A's JSON bindings carry one request per call; a2a-codegen generates no client streaming");
        }
        let input = m.input();
        let output = m.output();
        let params = self.named(
            input.full_name(),
            input.parent_file().name(),
            input.parent_message().is_some(),
            m.path(),
            &what,
        );
        let result = self.named(
            output.full_name(),
            output.parent_file().name(),
            output.parent_message().is_some(),
            m.path(),
            &what,
        );
        let mut allowed = vec![HTTP];
        allowed.extend_from_slice(IGNORED_METHOD_OPTIONS);
        let options = self.custom_options(&m.options(), m.path(), &what, &allowed);
        let mut http = Vec::new();
        for (ext, value) in &options {
            if Some(ext) == self.http.as_ref() {
                if let Some(rule) = value.as_message() {
                    http = self.http_rules(rule, m.path(), &what);
                }
            }
        }
        let (Some(TypeRef::Named(params)), Some(TypeRef::Named(result))) = (params, result) else {
            return None;
        };
        Some(Rpc {
            name: m.name().to_string(),
            params,
            result,
            streaming: m.is_server_streaming(),
            http,
            doc: self.doc(m.path()),
            location: self.location(m.path()),
        })
    }

    /// A `google.api.http` rule and its `additional_bindings`, flattened, the primary rule first.
    fn http_rules(&mut self, rule: &DynamicMessage, path: &[i32], what: &str) -> Vec<HttpRule> {
        let mut rules: Vec<HttpRule> = self.http_rule(rule, path, what).into_iter().collect();
        let extra = rule.get_field_by_name("additional_bindings");
        for binding in extra.iter().flat_map(|v| v.as_list().unwrap_or_default()) {
            let Some(binding) = binding.as_message() else {
                continue;
            };
            let nested = binding.get_field_by_name("additional_bindings");
            if nested
                .as_ref()
                .and_then(|v| v.as_list())
                .is_some_and(|l| !l.is_empty())
            {
                self.error(path, format!("an additional binding of {what} has additional bindings of its own"))
                    .help("google.api.http allows one level: list every binding in the rule's additional_bindings");
            }
            rules.extend(self.http_rule(binding, path, what));
        }
        rules
    }

    fn http_rule(&mut self, rule: &DynamicMessage, path: &[i32], what: &str) -> Option<HttpRule> {
        let string = |name: &str| {
            rule.get_field_by_name(name)
                .and_then(|v| v.as_str().map(str::to_string))
                .filter(|s| !s.is_empty())
        };
        let mut pattern = ["get", "put", "post", "delete", "patch"]
            .into_iter()
            .find(|verb| rule.has_field_by_name(verb))
            .map(|verb| (verb.to_ascii_uppercase(), string(verb).unwrap_or_default()));
        if pattern.is_none() && rule.has_field_by_name("custom") {
            let custom = rule.get_field_by_name("custom");
            let custom = custom.as_ref().and_then(|v| v.as_message());
            let field = |name: &str| {
                custom
                    .and_then(|c| c.get_field_by_name(name))
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            };
            pattern = Some((field("kind"), field("path")));
        }
        let Some((verb, template)) = pattern else {
            self.error(
                path,
                format!("a google.api.http rule of {what} has no pattern"),
            )
            .help("give the rule one of get, put, post, delete, patch or custom");
            return None;
        };
        Some(HttpRule {
            verb,
            path: template,
            body: string("body"),
            response_body: string("response_body"),
        })
    }
}

/// The `&'static` full name of a well-known type.
fn full_name_static(full_name: &str) -> &'static str {
    WELL_KNOWN
        .iter()
        .find(|(n, _, _)| *n == full_name)
        .map_or("", |(n, _, _)| n)
}

/// The proto spelling of a scalar kind, for messages.
fn kind_name(kind: &Kind) -> &'static str {
    match kind {
        Kind::Int64 => "int64",
        Kind::Sint64 => "sint64",
        Kind::Sfixed64 => "sfixed64",
        Kind::Uint64 => "uint64",
        Kind::Fixed64 => "fixed64",
        Kind::Uint32 => "uint32",
        Kind::Fixed32 => "fixed32",
        _ => "scalar",
    }
}

/// A leading comment as rustdoc text: one leading space dropped from each line (the one after
/// `//`), AIP-192 internal comments (`(-- ... --)`, for API producers, not readers) and
/// `protolint:` directives left out, surrounding blank lines trimmed.
fn clean_comment(text: &str) -> Option<String> {
    let mut public = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("(--") {
        public.push_str(&rest[..start]);
        rest = match rest[start..].find("--)") {
            Some(end) => &rest[start + end + 3..],
            None => "",
        };
    }
    public.push_str(rest);
    let lines: Vec<&str> = public
        .lines()
        .map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end())
        .filter(|l| !l.trim_start().starts_with("protolint:"))
        .collect();
    let doc = lines.join("\n").trim().to_string();
    (!doc.is_empty()).then_some(doc)
}

#[cfg(test)]
mod tests {
    use super::clean_comment;

    #[test]
    fn comments_lose_internal_notes_and_linter_directives() {
        assert_eq!(
            clean_comment(" protolint:disable X\n The history.\n").as_deref(),
            Some("The history.")
        );
        assert_eq!(
            clean_comment(" (-- api-linter: a\n     b --)\n Creates a config.\n").as_deref(),
            Some("Creates a config.")
        );
        assert_eq!(clean_comment(" \n").as_deref(), None);
        assert_eq!(clean_comment(" One\n two\n").as_deref(), Some("One\ntwo"));
    }
}
