//! Stage 3: whole-model checks that no single definition can make on its own. Every problem is
//! collected, with the JSON pointer of the definition it concerns.

use crate::diag::{pointer_push, Diagnostics};
use crate::facts::{UNKNOWN_FIELDS, UNKNOWN_PROTOBUF_FIELDS};
use crate::ir::*;
use crate::naming;
use a2a_facts::{case, grpc, jsonrpc};
use std::collections::{BTreeMap, BTreeSet};

/// Labels of the three input files, for diagnostics.
pub struct Files<'a> {
    /// The schema's label.
    pub schema: &'a str,
    /// The error table's label.
    pub errors: &'a str,
    /// The method table's label.
    pub methods: &'a str,
    /// The custom error table's label.
    pub custom_errors: &'a str,
}

/// Checks the model. `preserve_unknown` reserves the extra-members field name in every struct.
pub fn validate(model: &Model, files: &Files<'_>, preserve_unknown: bool, diags: &mut Diagnostics) {
    check_type_names(model, files.schema, diags);
    for def in model.types.values() {
        check_numbers(def, files.schema, diags);
        match &def.kind {
            TypeKind::Struct(s) => check_struct(s, def, files.schema, preserve_unknown, diags),
            TypeKind::OneOf(g) => {
                check_members(g, &def.pointer, files.schema, &mut BTreeSet::new(), diags)
            }
            TypeKind::Enum(e) => check_enum(e, def, files.schema, diags),
            TypeKind::Tagged(t) => check_tagged(t, def, model, files.schema, diags),
            TypeKind::Alias(_) => {}
        }
    }
    check_recursion(model, files.schema, diags);
    check_errors(&model.errors, files.errors, diags);
    check_methods(model, files.methods, diags);
    if let Some(custom) = &model.custom_errors {
        check_custom_errors(model, custom, files, diags);
    }
}

/// The methods of a generated error enum (`error_api!` and `ErrorTable`), which a row's
/// constructor must not shadow.
const ERROR_METHODS: &[&str] = &[
    "from_code",
    "from_raw",
    "code",
    "message",
    "data",
    "data_mut",
    "from_custom",
    "to_custom",
    "with_data",
    "with_details",
    "details",
    "error_info",
    "from_fault",
    "row",
    "rows",
    "name",
    "grpc_status",
    "http_status",
    "with_message",
    "with_info",
    "is_code_taken",
];

/// Names the generated modules define next to a custom error enum.
const GENERATED_NAMES: &[&str] = &[
    "A2aError",
    "CallError",
    "StreamDecoder",
    "MethodName",
    "Reply",
    "Request",
    "IncomingRequest",
    "RejectedRequest",
    "method",
    "A2aService",
    "A2aServer",
    "Protocol",
    "ServiceError",
    "EventStream",
    "RequestContext",
];

fn check_custom_errors(
    model: &Model,
    custom: &CustomErrors,
    files: &Files<'_>,
    diags: &mut Diagnostics,
) {
    let file = files.custom_errors;
    if model.errors.is_empty() {
        diags
            .push(
                file,
                "",
                "a custom error table needs the standard error table",
            )
            .help("add errors.toml to the spec directory: custom codes are checked against it");
    }
    if custom.rows.is_empty() {
        diags
            .push(file, "/error", "the custom error table has no rows")
            .help("add [[error]] entries with at least `name` and `code`");
    }
    let name = &custom.enum_name;
    if !naming::is_identifier(name) || !name.starts_with(|c: char| c.is_ascii_uppercase()) {
        diags
            .push(
                file,
                "/enum",
                format!("`{name}` is not a PascalCase Rust type name"),
            )
            .help("name the enum like a Rust type, e.g. enum = \"BillingError\"");
    } else if GENERATED_NAMES.contains(&name.as_str())
        || model.types.values().any(|t| &t.name == name)
    {
        diags
            .push(
                file,
                "/enum",
                format!("`{name}` is already a name in the generated module"),
            )
            .help("pick another enum name");
    }
    check_errors(&custom.rows, file, diags);
    for (i, row) in custom.rows.iter().enumerate() {
        let at = format!("/error/{i}/code");
        if let Some(taken) = model.errors.iter().find(|e| e.code == row.code) {
            diags
                .push(
                    file,
                    at,
                    format!(
                        "code {} of `{}` is taken by `{}` in {}",
                        row.code, row.name, taken.name, files.errors
                    ),
                )
                .help(custom_code_help());
        } else if jsonrpc::RESERVED.contains(&row.code) {
            diags
                .push(
                    file,
                    at,
                    format!(
                        "code {} of `{}` is inside the JSON-RPC reserved block {}",
                        row.code,
                        row.name,
                        jsonrpc::RESERVED_TEXT
                    ),
                )
                .help(custom_code_help());
        }
    }
    check_custom_reasons(model, custom, files, diags);
}

/// The reasons of a custom table: each UPPER_SNAKE_CASE (what `google.rpc.ErrorInfo` asks), not
/// a reason of the standard table, and not another row's, since over HTTP+JSON the reason, not
/// the code, names an error. A problem with a written reason points at its `reason`; with a
/// default one, at the `name` it comes from.
fn check_custom_reasons(
    model: &Model,
    custom: &CustomErrors,
    files: &Files<'_>,
    diags: &mut Diagnostics,
) {
    let file = files.custom_errors;
    let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
    for (i, row) in custom.rows.iter().enumerate() {
        let Some(reason) = row.reason.as_deref() else {
            continue;
        };
        let written = custom.reason_written.get(i).copied().unwrap_or(true);
        let (at, subject) = if written {
            let subject = if reason.is_empty() {
                format!("the empty reason of `{}`", row.name)
            } else {
                format!("the reason `{reason}` of `{}`", row.name)
            };
            (format!("/error/{i}/reason"), subject)
        } else {
            (
                format!("/error/{i}/name"),
                format!(
                    "the reason `{reason}` of `{}` (the default: its name in UPPER_SNAKE_CASE)",
                    row.name
                ),
            )
        };
        let fix = if written {
            "pick another reason"
        } else {
            "add `reason = \"...\"` to the row"
        };
        if !case::is_upper_snake(reason) {
            diags
                .push(file, at, format!("{subject} is not UPPER_SNAKE_CASE"))
                .help(format!(
                    "{fix}: a google.rpc.ErrorInfo reason matches `{}`, like \"QUOTA_EXCEEDED\"",
                    case::UPPER_SNAKE_PATTERN
                ));
            continue;
        }
        // A standard JSON-RPC row is named over REST by the reason a2a-sdk gives it.
        let named_by = |e: &crate::ir::ErrorDef| match &e.reason {
            Some(r) => r == reason,
            None => {
                e.kind == crate::ir::ErrorKind::JsonRpc
                    && a2a_facts::jsonrpc::standard_reason(e.code) == Some(reason)
            }
        };
        if let Some(taken) = model.errors.iter().find(|e| named_by(e)) {
            diags
                .push(
                    file,
                    at,
                    format!("{subject} is taken by `{}` in {}", taken.name, files.errors),
                )
                .help(format!("{fix}: {REASON_WHY}"));
        } else if let Some(first) = seen.get(reason) {
            if !written && *first == row.name {
                // The same name twice, reported as such: its default reason adds nothing.
                continue;
            }
            diags
                .push(
                    file,
                    at,
                    format!("{subject} is already the reason of `{first}`"),
                )
                .help(format!("{fix}: every row needs its own, as {REASON_WHY}"));
        } else {
            seen.insert(reason, &row.name);
        }
    }
}

/// Why a custom row's reason must be its own.
const REASON_WHY: &str = "over HTTP+JSON the reason, not the code, names the error";

fn custom_code_help() -> String {
    format!(
        "pick a code in {} that the standard table does not use, or any code outside {}",
        jsonrpc::SERVER_ERRORS_TEXT,
        jsonrpc::PRE_DEFINED_TEXT
    )
}

fn check_type_names(model: &Model, file: &str, diags: &mut Diagnostics) {
    let mut taken: BTreeMap<String, String> = BTreeMap::new();
    for def in model.types.values() {
        if !usable_ident(&def.name, false) {
            diags
                .push(file, &def.pointer, format!("`{}` is not usable as a Rust type name", def.name))
                .help("name definitions in PascalCase with ASCII letters and digits (the spec's message names)");
        }
        taken.insert(def.name.clone(), def.pointer.clone());
    }
    for def in model.types.values() {
        if let TypeKind::Struct(StructDef { oneof: Some(o), .. }) = &def.kind {
            if let Some(other) = taken.get(&o.enum_name) {
                diags
                    .push(
                        file,
                        &def.pointer,
                        format!(
                            "the oneof enum `{}` would clash with the type at {other}",
                            o.enum_name
                        ),
                    )
                    .help("rename the `x-oneof-name` or the other definition");
            }
            taken.insert(o.enum_name.clone(), def.pointer.clone());
        }
    }
}

/// Whether `name` can be written as a Rust identifier: fields may take `r#` (so `type` is fine),
/// type and variant names may not, and `self`, `Self`, `super`, `crate` never can.
fn usable_ident(name: &str, raw_allowed: bool) -> bool {
    naming::is_identifier(name)
        && (!naming::is_keyword(name)
            || (raw_allowed && !matches!(name, "self" | "Self" | "super" | "crate")))
}

fn check_ident(
    name: &str,
    raw_allowed: bool,
    what: &str,
    file: &str,
    pointer: &str,
    diags: &mut Diagnostics,
) {
    if !usable_ident(name, raw_allowed) {
        diags
            .push(file, pointer, format!("`{name}` ({what}) is not usable as a Rust identifier"))
            .help("rename it: ASCII letters, digits and `_`, not starting with a digit, not a reserved Rust word");
    }
}

fn check_struct(
    s: &StructDef,
    def: &TypeDef,
    file: &str,
    preserve_unknown: bool,
    diags: &mut Diagnostics,
) {
    for f in &s.fields {
        check_ident(
            &f.rust_name,
            true,
            "the field name",
            file,
            &f.pointer,
            diags,
        );
    }
    if let Some(o) = &s.oneof {
        check_ident(
            &o.rust_name,
            true,
            "the oneof field name",
            file,
            &def.pointer,
            diags,
        );
    }
    let mut rust_names: BTreeSet<&str> = BTreeSet::new();
    let mut wire: BTreeSet<String> = BTreeSet::new();
    if preserve_unknown {
        rust_names.insert(UNKNOWN_FIELDS);
        rust_names.insert(UNKNOWN_PROTOBUF_FIELDS);
    }
    let oneof_name = s.oneof.as_ref().map(|o| o.rust_name.as_str());
    for (rust, pointer) in s
        .fields
        .iter()
        .map(|f| (f.rust_name.as_str(), &f.pointer))
        .chain(oneof_name.map(|n| (n, &def.pointer)))
    {
        if !rust_names.insert(rust) {
            diags
                .push(file, pointer.as_str(), format!("two members of `{}` become the Rust field `{rust}`", def.name))
                .help("rename one property (or the x-oneof-name); note `unknown_fields` and `unknown_protobuf_fields` are reserved when extras are preserved");
        }
    }
    let names = s
        .fields
        .iter()
        .map(|f| (&f.json_name, &f.alias, &f.pointer))
        .chain(
            s.consts
                .iter()
                .map(|c| (&c.json_name, &c.alias, &def.pointer)),
        );
    for (json, alias, pointer) in names {
        for name in std::iter::once(json).chain(alias.iter()) {
            if !wire.insert(name.clone()) {
                diags.push(file, pointer.as_str(), format!("the wire name `{name}` is used twice in `{}`", def.name)).help(
                    "a property's snake_case form is accepted as an alias, so `fooBar` and `foo_bar` cannot both be properties",
                );
            }
        }
    }
    if let Some(o) = &s.oneof {
        check_members(&o.group, &def.pointer, file, &mut wire, diags);
    }
}

/// Protobuf field numbers are unique within a message (its fields and its oneof's members).
fn check_numbers(def: &TypeDef, file: &str, diags: &mut Diagnostics) {
    let (fields, group) = match &def.kind {
        TypeKind::Struct(s) => (&s.fields[..], s.oneof.as_ref().map(|o| &o.group)),
        TypeKind::OneOf(g) => (&[][..], Some(g)),
        _ => return,
    };
    let numbered = fields
        .iter()
        .map(|f| (f.number, f.json_name.as_str(), f.pointer.as_str()))
        .chain(group.into_iter().flat_map(|g| {
            g.members
                .iter()
                .map(|m| (m.number, m.json_name.as_str(), def.pointer.as_str()))
        }));
    let mut seen: BTreeMap<u32, &str> = BTreeMap::new();
    for (number, name, pointer) in numbered {
        let Some(number) = number else { continue };
        if let Some(first) = seen.insert(number, name) {
            diags
                .push(file, pointer, format!("`{name}` and `{first}` of `{}` have the same field number {number}", def.name))
                .help("give each property of a message its own `x-field-number`, as the proto numbers its fields");
        }
    }
}

fn check_members(
    group: &OneOfGroup,
    pointer: &str,
    file: &str,
    wire: &mut BTreeSet<String>,
    diags: &mut Diagnostics,
) {
    let mut variants = BTreeSet::new();
    for m in &group.members {
        let what = format!("the variant for oneof member `{}`", m.json_name);
        check_ident(&m.variant, false, &what, file, pointer, diags);
        for name in std::iter::once(&m.json_name).chain(m.alias.iter()) {
            if !wire.insert(name.clone()) {
                diags.push(
                    file,
                    pointer,
                    format!("the wire name `{name}` is used twice"),
                );
            }
        }
        if !variants.insert(&m.variant) {
            diags
                .push(
                    file,
                    pointer,
                    format!("two oneof members become the Rust variant `{}`", m.variant),
                )
                .help("rename one of the members");
        }
    }
}

/// The variants of a tagged union: usable, distinct Rust names, and targets that are structs
/// pinning the tag to the variant's value (lowering checks the schema; this checks the model).
fn check_tagged(
    t: &TaggedUnion,
    def: &TypeDef,
    model: &Model,
    file: &str,
    diags: &mut Diagnostics,
) {
    let mut variants: BTreeMap<&str, &TaggedVariant> = BTreeMap::new();
    for v in &t.variants {
        if !usable_ident(&v.variant, false) {
            diags
                .push(
                    file,
                    &v.pointer,
                    format!(
                        "the tag value \"{}\" of `{}` gives no usable Rust variant name (got `{}`)",
                        v.value, def.name, v.variant
                    ),
                )
                .help("variant names come from the tag values (`status-update` -> `StatusUpdate`): use a value that starts with a letter");
        } else if let Some(other) = variants.insert(&v.variant, v) {
            diags
                .push(
                    file,
                    &v.pointer,
                    format!(
                        "the tag values \"{}\" and \"{}\" of `{}` both become the Rust variant `{}`",
                        other.value, v.value, def.name, v.variant
                    ),
                )
                .help("tag values must differ in more than case and punctuation: rename one");
        }
        let pinned = match model.types.get(&v.ty).map(|d| &d.kind) {
            Some(TypeKind::Struct(s)) => s.consts.iter().any(|c| {
                c.json_name == t.tag && c.required && c.value == Literal::String(v.value.clone())
            }),
            // Not lowered: its own diagnostics are already reported.
            None => true,
            Some(_) => false,
        };
        if !pinned {
            diags
                .push(
                    file,
                    &v.pointer,
                    format!("`{}` does not pin `{}` to \"{}\"", v.ty, t.tag, v.value),
                )
                .help("a tagged union's variants must be objects with a required `const` tag property");
        }
    }
}

fn check_enum(e: &EnumDef, def: &TypeDef, file: &str, diags: &mut Diagnostics) {
    let mut seen = BTreeSet::new();
    for v in &e.values {
        check_ident(
            &v.variant,
            false,
            "the enum variant",
            file,
            &def.pointer,
            diags,
        );
        if v.variant == "Unrecognized" || !seen.insert(&v.variant) {
            diags
                .push(file, pointer_push(&def.pointer, "enum"), format!("enum value `{}` gives the Rust variant `{}` twice or a reserved one", v.wire, v.variant))
                .help("`Unrecognized` is reserved for values this schema does not name; rename the value");
        }
    }
}

/// A type that contains itself by value (not through a list or map) would have infinite size.
fn check_recursion(model: &Model, file: &str, diags: &mut Diagnostics) {
    fn direct(ty: &TypeRef, out: &mut Vec<TypeId>) {
        if let TypeRef::Named(id) = ty {
            out.push(id.clone());
        }
    }
    let mut edges: BTreeMap<&TypeId, Vec<TypeId>> = BTreeMap::new();
    for (id, def) in &model.types {
        let mut out = Vec::new();
        match &def.kind {
            TypeKind::Struct(s) => {
                s.fields.iter().for_each(|f| direct(&f.ty, &mut out));
                if let Some(o) = &s.oneof {
                    o.group.members.iter().for_each(|m| direct(&m.ty, &mut out));
                }
            }
            TypeKind::OneOf(g) => g.members.iter().for_each(|m| direct(&m.ty, &mut out)),
            TypeKind::Tagged(t) => t.variants.iter().for_each(|v| out.push(v.ty.clone())),
            TypeKind::Alias(ty) => direct(ty, &mut out),
            TypeKind::Enum(_) => {}
        }
        edges.insert(id, out);
    }
    for (start, def) in &model.types {
        let mut stack: Vec<&TypeId> = vec![start];
        let mut seen = BTreeSet::new();
        while let Some(id) = stack.pop() {
            for next in edges.get(id).into_iter().flatten() {
                if next == start {
                    diags
                        .push(
                            file,
                            &def.pointer,
                            format!("`{start}` contains itself by value"),
                        )
                        .help("recursive types are supported only through an array or a map");
                    stack.clear();
                    break;
                }
                if seen.insert(next) {
                    stack.push(next);
                }
            }
        }
    }
}

fn check_errors(errors: &[ErrorDef], file: &str, diags: &mut Diagnostics) {
    let mut names = BTreeSet::new();
    let mut codes = BTreeSet::new();
    for (i, e) in errors.iter().enumerate() {
        let at = format!("/error/{i}");
        if !naming::is_identifier(&e.name) || !e.name.starts_with(|c: char| c.is_ascii_uppercase())
        {
            diags.push(
                file,
                format!("{at}/name"),
                format!("`{}` is not a PascalCase Rust variant name", e.name),
            );
        }
        if !names.insert(&e.name) {
            diags.push(
                file,
                format!("{at}/name"),
                format!("error name `{}` is used twice", e.name),
            );
        }
        let constructor = crate::emit::constructor_name(&e.name);
        if ERROR_METHODS.contains(&constructor.as_str()) {
            diags
                .push(
                    file,
                    format!("{at}/name"),
                    format!(
                        "the row `{}` would get the constructor `{constructor}()`, which is \
                         already a method of the error enum",
                        e.name
                    ),
                )
                .help("rename the row");
        }
        if !codes.insert(e.code) {
            diags.push(
                file,
                format!("{at}/code"),
                format!("error code {} is used twice", e.code),
            );
        }
        if i32::try_from(e.code).is_err() {
            diags.push(
                file,
                format!("{at}/code"),
                format!("error code {} does not fit in 32 bits", e.code),
            );
        }
        if grpc::by_name(&e.grpc).is_none() {
            diags
                .push(
                    file,
                    format!("{at}/grpc"),
                    format!("`{}` is not a gRPC status code name", e.grpc),
                )
                .help(format!("use one of {}", grpc::names_list()));
        }
        if e.message.trim().is_empty() {
            diags.push(
                file,
                format!("{at}/message"),
                "the default message is empty",
            );
        }
    }
}

fn check_methods(model: &Model, file: &str, diags: &mut Diagnostics) {
    if !model.methods.is_empty() && model.errors.is_empty() {
        diags
            .push(file, "", "a method table needs an error table beside it")
            .help("add errors.toml to the spec directory: replies decode into its error enum");
    }
    if let Some(version) = &model.protocol_version {
        let numbers: Vec<&str> = version.split('.').collect();
        let major_minor = numbers.len() == 2
            && numbers
                .iter()
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !major_minor {
            diags
                .push(
                    file,
                    "/protocol_version",
                    format!("`{version}` is not a Major.Minor version"),
                )
                .help("write the A2A version as `A2A-Version` carries it: \"1.0\" or \"0.3\"");
        }
    }
    let mut names = BTreeSet::new();
    let mut rust_names = BTreeSet::new();
    for (i, m) in model.methods.iter().enumerate() {
        let at = format!("/method/{i}");
        let first = names.insert(&m.name);
        if !first {
            diags.push(
                file,
                format!("{at}/name"),
                format!("method `{}` is listed twice", m.name),
            );
        }
        let key = if m.rust_name == m.name {
            "name"
        } else {
            "rust_name"
        };
        if !first {
            // The same row twice: reported above.
        } else if !naming::is_identifier(&m.rust_name)
            || !m.rust_name.starts_with(|c: char| c.is_ascii_uppercase())
        {
            diags
                .push(
                    file,
                    format!("{at}/{key}"),
                    format!("`{}` is not a PascalCase Rust name", m.rust_name),
                )
                .help("add `rust_name = \"SendMessage\"` for a wire name that is not one");
        } else if !rust_names.insert(&m.rust_name) {
            diags.push(
                file,
                format!("{at}/{key}"),
                format!("two methods have the Rust name `{}`", m.rust_name),
            );
        }
        for (key, ty) in [("params", &m.params), ("result", &m.result)] {
            if !model.types.contains_key(ty) {
                diags
                    .push(
                        file,
                        format!("{at}/{key}"),
                        format!("`{ty}` is not a type of the schema"),
                    )
                    .help("name a $defs entry of a2a.schema.json");
            }
        }
        if let Some(row) = &m.unsupported {
            if !model.errors.is_empty() && !model.errors.iter().any(|e| &e.name == row) {
                diags
                    .push(
                        file,
                        format!("{at}/unsupported"),
                        format!("`{row}` is not a row of the error table"),
                    )
                    .help(format!(
                        "name the error a service without `{}` answers by its row's `name` \
                         (UnsupportedOperation, PushNotificationNotSupported, ...), or leave \
                         `unsupported` out for UnsupportedOperation",
                        m.name
                    ));
            }
        }
        if !model.types.contains_key(&m.params) {
            continue;
        }
        let mut seen = BTreeSet::new();
        for (j, path) in m.requires.iter().enumerate() {
            let location = format!("{at}/requires/{j}");
            if !seen.insert(path) {
                diags.push(
                    file,
                    location,
                    format!("`{path}` is listed twice in the `requires` of `{}`", m.name),
                );
                continue;
            }
            if let Err(why) = crate::requires::resolve(model, &m.params, path) {
                diags
                    .push(file, location, format!("`requires` of `{}`: {why}", m.name))
                    .help(
                        "name a member of the params by its JSON names, dot-separated \
                         (`message.parts`), through objects only; or remove the entry",
                    );
            }
        }
    }
}
