//! The generator's own intermediate representation: what the A2A model *means*, independent of
//! JSON Schema spelling and of Rust tokens (no syn or quote types here).
//!
//! Types are kept in a `BTreeMap` keyed by their schema name, and refer to each other by that id,
//! so iteration order (and therefore output) never depends on hashing.
//!
//! Every type is `Serialize` (serde's default representation: structs as objects, enums externally
//! tagged) so that `a2a-codegen ir INPUT` can print the model as JSON; maps are `BTreeMap`s and
//! tables keep file order, so the dump is deterministic.
//!
//! Every public type is `#[non_exhaustive]`: the model grows with the spec, and a new field or
//! kind is not a breaking change of this crate. Read it from [`Config::model`](crate::Config::model);
//! build what a tool needs with `Default` ([`Model`], [`StructDef`]) or a constructor
//! ([`HttpRule::new`]).

use serde::Serialize;
use std::collections::BTreeMap;

/// The schema name of a type (the `$defs` key), used as its id.
pub type TypeId = String;

/// Everything the generator knows after lowering.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Model {
    /// Every named type, by id.
    pub types: BTreeMap<TypeId, TypeDef>,
    /// The error table (`errors.toml`), in file order. Empty when the table is absent.
    pub errors: Vec<ErrorDef>,
    /// The JSON-RPC methods (`methods.toml`), in file order. Empty when the table is absent.
    pub methods: Vec<MethodDef>,
    /// A user's own error table, when one is configured.
    pub custom_errors: Option<CustomErrors>,
    /// The A2A version the methods are served in (the method table's `protocol_version`).
    pub protocol_version: Option<String>,
}

impl Model {
    /// Follows `Alias` types to the type that decides the encoding (bounded: validation rejects
    /// alias cycles as self-containing types).
    pub fn resolve<'a>(&'a self, mut ty: &'a TypeRef) -> &'a TypeRef {
        for _ in 0..64 {
            match ty {
                TypeRef::Named(id) => match self.types.get(id).map(|d| &d.kind) {
                    Some(TypeKind::Alias(target)) => ty = target,
                    _ => return ty,
                },
                _ => return ty,
            }
        }
        ty
    }
}

/// A user's own error table: one enum implementing the runtime's `AgentError`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct CustomErrors {
    /// The enum's name.
    pub enum_name: String,
    /// The rows, in file order (kind [`ErrorKind::Custom`]); each has a `reason`.
    pub rows: Vec<ErrorDef>,
    /// For each row, whether the table wrote its `reason` (else it is the default, the name in
    /// UPPER_SNAKE_CASE): a diagnostic about a reason points at the column it came from. Not in
    /// the IR dump, which shows what the rows mean.
    #[serde(skip)]
    pub reason_written: Vec<bool>,
}

/// A named type.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct TypeDef {
    /// The Rust name (equal to the schema name; the schema names are the spec's names).
    pub name: String,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// Where it is defined, for diagnostics: a JSON pointer (`/$defs/Task`), or for a proto
    /// `line L, column C`.
    pub pointer: String,
    /// What kind of type it is.
    pub kind: TypeKind,
}

/// The kinds of named type.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub enum TypeKind {
    /// An object with named fields, and at most one oneof group beside them.
    Struct(StructDef),
    /// An open string enum: unknown values survive as `Unrecognized`.
    Enum(EnumDef),
    /// An object that is nothing but a oneof: becomes a Rust enum whose variant names the member.
    OneOf(OneOfGroup),
    /// Another name for a type (`Struct`, `Value`, `Timestamp`).
    Alias(TypeRef),
    /// An internally tagged union (`oneOf` of `$ref`s with `x-discriminator`): a Rust enum with one
    /// variant per object type, chosen on decode by the value of the tag member that every variant
    /// pins with `const` (A2A v0.3's `kind`).
    Tagged(TaggedUnion),
}

/// An internally tagged union: the object's `tag` member names the variant.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct TaggedUnion {
    /// The tag member's JSON name (`kind`).
    pub tag: String,
    /// Variants in schema order.
    pub variants: Vec<TaggedVariant>,
}

/// One variant of a tagged union.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct TaggedVariant {
    /// The tag value that selects it (`status-update`): the `const` of the target's tag property.
    pub value: String,
    /// The Rust variant name (`StatusUpdate`), from the tag value.
    pub variant: String,
    /// The object type it holds (the branch's `$ref` target).
    pub ty: TypeId,
    /// JSON pointer of the branch, for diagnostics.
    pub pointer: String,
}

/// An object type.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct StructDef {
    /// Fields in schema order.
    pub fields: Vec<Field>,
    /// Properties pinned to one value with `const`: checked on decode, written on encode, not stored.
    pub consts: Vec<ConstField>,
    /// The oneof group beside the fields, if any (stored in one field holding an enum).
    pub oneof: Option<OneOfField>,
}

/// A stored field.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Field {
    /// Name on the wire (lowerCamelCase).
    pub json_name: String,
    /// Other name accepted on decode (the snake_case proto name), when it differs.
    pub alias: Option<String>,
    /// Rust field name (snake_case, without `r#`).
    pub rust_name: String,
    /// The value's type.
    pub ty: TypeRef,
    /// How absence is handled.
    pub presence: Presence,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// Marked `deprecated` in the schema.
    pub deprecated: bool,
    /// The protobuf field number: the proto's, or the schema's `x-field-number`. `None` when
    /// the input gives none (then no protobuf codec can be generated for the type).
    pub number: Option<u32>,
    /// Where it is defined, for diagnostics: a JSON pointer, or for a proto `line L, column C`.
    pub pointer: String,
}

/// How a field's absence is handled on decode and its value on encode.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub enum Presence {
    /// Listed in `required`. Scalars, enums, lists and maps decode to their default when absent
    /// (ProtoJSON writers omit default values even for REQUIRED fields); a message is an error.
    /// Always written on encode.
    Required,
    /// Not required: `Option<T>`, written when `Some`. Lists and maps are never `Option`: they
    /// default to empty and are written when non-empty.
    Optional,
    /// Not required, with a schema `default`: a plain value that is that default when absent, and
    /// is written when it differs from it.
    Defaulted(Literal),
}

/// A literal from the schema (`default`, `const`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub enum Literal {
    /// A string.
    String(String),
    /// An integer.
    Integer(i64),
    /// A number with a fraction.
    Number(f64),
    /// A boolean.
    Bool(bool),
}

/// A property pinned with `const`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ConstField {
    /// Name on the wire.
    pub json_name: String,
    /// Other name accepted on decode.
    pub alias: Option<String>,
    /// The only value allowed.
    pub value: Literal,
    /// Whether the member must be present on decode.
    pub required: bool,
}

/// A oneof group stored in a field of a struct (`Part.content`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct OneOfField {
    /// Rust field name holding the group (from `x-oneof-name`).
    pub rust_name: String,
    /// The group's Rust enum type name (`PartContent`).
    pub enum_name: String,
    /// The group itself.
    pub group: OneOfGroup,
}

/// A oneof: exactly one of the members is present; the member's JSON name is the key.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct OneOfGroup {
    /// The proto oneof's name (`content`, `payload`), when the schema gives it.
    pub name: Option<String>,
    /// Members in schema order.
    pub members: Vec<OneOfMember>,
}

/// One member of a oneof.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct OneOfMember {
    /// Name on the wire.
    pub json_name: String,
    /// Other name accepted on decode.
    pub alias: Option<String>,
    /// Rust variant name.
    pub variant: String,
    /// The member's value type.
    pub ty: TypeRef,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// Marked `deprecated` in the schema.
    pub deprecated: bool,
    /// The protobuf field number, as for [`Field::number`].
    pub number: Option<u32>,
}

/// An open enum.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct EnumDef {
    /// Values in number order: a value's ProtoJSON number is its index.
    pub values: Vec<EnumValue>,
}

/// One enum value.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct EnumValue {
    /// The wire string.
    pub wire: String,
    /// The Rust variant name.
    pub variant: String,
    /// The ProtoJSON number.
    pub number: i32,
}

/// A reference to a type, as used by a field, list item, map value or alias.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[non_exhaustive]
pub enum TypeRef {
    /// `string`.
    String,
    /// `boolean`.
    Bool,
    /// `integer` with `format: int32`.
    Int32,
    /// `integer` without a format: a JSON number in the i64 range.
    Integer,
    /// A protobuf `int64` (also `sint64`, `sfixed64`): `type: ["integer", "string"]` with
    /// `format: int64`. An `i64`, written as a decimal string as ProtoJSON writes it, read from a
    /// string or a number.
    Int64,
    /// A protobuf `uint64` (also `fixed64`): `type: ["integer", "string"]` with `format:
    /// uint64`. A `u64`, written and read as [`TypeRef::Int64`] is.
    UInt64,
    /// `number`.
    Number,
    /// `string` with `format: byte`: base64 on the wire.
    Bytes,
    /// `string` with `format: date-time`: RFC 3339, kept as written.
    Timestamp,
    /// Any JSON value (an empty schema).
    Any,
    /// A free-form JSON object (`type: object` with neither properties nor a value schema).
    JsonObject,
    /// A named type.
    Named(TypeId),
    /// `array` of the item type.
    List(Box<TypeRef>),
    /// `object` with `additionalProperties: <schema>`: string keys to the value type.
    Map(Box<TypeRef>),
}

/// One row of the error table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ErrorDef {
    /// Rust variant name.
    pub name: String,
    /// The spec's name for it.
    pub spec_name: String,
    /// JSON-RPC error code.
    pub code: i64,
    /// `a2a` or `jsonrpc`.
    pub kind: ErrorKind,
    /// gRPC status code name.
    pub grpc: String,
    /// HTTP status.
    pub http: u16,
    /// Default message.
    pub message: String,
    /// `google.rpc.ErrorInfo` reason, for A2A rows.
    pub reason: Option<String>,
    /// One line of meaning.
    pub doc: String,
}

/// Which table an error row belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An A2A-specific error (spec §5.4).
    A2a,
    /// A standard JSON-RPC 2.0 error (spec §9.5).
    JsonRpc,
    /// An agent's own error, from a custom table.
    Custom,
}

/// One JSON-RPC method.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct MethodDef {
    /// The method name on the wire (`SendMessage`, or v0.3's `message/send`).
    pub name: String,
    /// The Rust name of its unit type and variants (`SendMessage`): the wire name unless the
    /// table gives `rust_name` (wire names like `message/send` are not identifiers).
    pub rust_name: String,
    /// The params type's id.
    pub params: TypeId,
    /// The result type's id (per event for streaming methods).
    pub result: TypeId,
    /// Whether the reply is an SSE stream.
    pub streaming: bool,
    /// One line of meaning.
    pub doc: String,
    /// Dotted JSON paths into the params (`message.parts`) naming what the method cannot run
    /// without: the server refuses a request in which one is absent, null or empty (-32602).
    /// In table order; resolved against the types by the generator (`requires::resolve`).
    pub requires: Vec<String>,
    /// The method's HTTP+JSON routes (the rpc's `google.api.http` option): the primary rule first,
    /// then its `additional_bindings` in order. Empty when the input says none (A2A v0.3).
    pub http: Vec<HttpRule>,
    /// Routes the server also takes the method at (the method table's `http_also_served`): not
    /// the proto's, so a client never sends them; what the spec's text or a2a-sdk's client use
    /// where the proto says otherwise (SubscribeToTask under `POST`).
    pub http_also_served: Vec<HttpRule>,
    /// The error row (by name) the generated service trait's default body answers with, for an
    /// agent that does not serve the method (the method table's `unsupported`); `None` means
    /// `UnsupportedOperation`.
    pub unsupported: Option<String>,
}

/// One HTTP route of a method, as a `google.api.http` rule gives it: what the HTTP+JSON binding
/// serves the method at (A2A v1 §11).
///
/// Field names in `path` and `body` are the request's proto field names (`task_id`), as the rule
/// writes them; the binding puts their lowerCamelCase JSON names in bodies and query strings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct HttpRule {
    /// The HTTP method, upper case: `GET`, `POST`, `PUT`, `PATCH`, `DELETE`, or the verb of a
    /// custom rule.
    pub verb: String,
    /// The path template as written: literal segments and `{field}` or `{field=pattern}`
    /// variables that fill request fields (`/tasks/{task_id=*}/pushNotificationConfigs/{id=*}`,
    /// `/{tenant}/message:send`).
    pub path: String,
    /// What the request body holds: `*` for the whole request (less the fields in the path), a
    /// field's name for that field alone; `None` for no body (the fields not in the path are
    /// query parameters).
    pub body: Option<String>,
    /// The response field that is the reply body, when the rule names one; `None` for the whole
    /// response message.
    pub response_body: Option<String>,
}

impl HttpRule {
    /// A rule with no request body and the whole response as its body (`GET`, `DELETE`);
    /// [`HttpRule::with_body`] names the request field the body fills.
    ///
    /// ```
    /// let rule = a2a_codegen::ir::HttpRule::new("GET", "/tasks/{id=*}");
    /// assert_eq!((rule.verb.as_str(), rule.body), ("GET", None));
    /// ```
    pub fn new(verb: impl Into<String>, path: impl Into<String>) -> Self {
        HttpRule {
            verb: verb.into(),
            path: path.into(),
            body: None,
            response_body: None,
        }
    }

    /// The same rule with the request field (`*` for every field the path does not bind) that
    /// the body fills.
    pub fn with_body(mut self, field: impl Into<String>) -> Self {
        self.body = Some(field.into());
        self
    }
}

impl HttpRule {
    /// The field paths the path template fills, in order (`["task_id", "id"]` for
    /// `/tasks/{task_id=*}/pushNotificationConfigs/{id=*}`); dotted for nested fields.
    ///
    /// ```
    /// let rule = a2a_codegen::ir::HttpRule::new("GET", "/{tenant}/tasks/{id=*}");
    /// assert_eq!(rule.path_variables(), ["tenant", "id"]);
    /// ```
    pub fn path_variables(&self) -> Vec<&str> {
        let mut vars = Vec::new();
        let mut rest = self.path.as_str();
        while let Some(start) = rest.find('{') {
            let after = &rest[start + 1..];
            let Some(end) = after.find('}') else { break };
            let var = &after[..end];
            vars.push(var.split_once('=').map_or(var, |(name, _)| name).trim());
            rest = &after[end + 1..];
        }
        vars
    }
}
