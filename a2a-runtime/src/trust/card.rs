//! The agent card's canonical form: the JWS payload of its signatures (spec §8.4.1).

use crate::trust::jcs::{self, JcsError};
use serde_json::{Map, Value};

/// Which canonical form of a card a signature covers.
///
/// Both start from the card as received, `signatures` removed, and end in RFC 8785; they differ
/// in what they leave out before that.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CardForm {
    /// The spec's (§8.4.1): protobuf presence applied to the members the v1.0 `AgentCard` schema
    /// knows. A REQUIRED field is always present (with its default when the card lacks it, or has
    /// `null`); an `optional` field is present when the card has it (`"streaming": false` stays);
    /// any other field is left out at its default (`""`, `false`, `[]`, `{}`) or `null`. Members
    /// the schema does not know, and everything inside a `Struct` (an extension's `params`), are
    /// kept as received: a newer agent's card verifies with its new members.
    Spec,
    /// a2a-sdk's (1.2 and 1.3; `a2a/utils/signing.py`): the spec's form, then every empty string,
    /// list and object, and every `null`, removed at any depth, REQUIRED or not, inside `params`
    /// too (a list or object left empty by that goes as well). The SDK signs
    /// and verifies this form, so a card it signed whose spec form keeps an empty value (a
    /// `"description": ""`, a `"skills": []`) verifies only in this form.
    CleanEmpty,
}

impl CardForm {
    /// Both forms, the spec's first: what a verifier tries by default.
    pub const ALL: [CardForm; 2] = [CardForm::Spec, CardForm::CleanEmpty];

    /// A short name for messages: `spec` or `clean-empty`.
    pub fn name(self) -> &'static str {
        match self {
            CardForm::Spec => "spec",
            CardForm::CleanEmpty => "clean-empty",
        }
    }
}

/// The canonical bytes a signature of `card` in `form` covers: the JWS payload.
///
/// `card` is the card as received (parse raw bytes with [`jcs::parse`] to keep every number as
/// its text says). Errors when the card is not a JSON object or nests too deep.
///
/// ```
/// use a2a_runtime::trust::{card_payload, CardForm};
/// use serde_json::json;
///
/// // The spec's own example (§8.4.1).
/// let card = json!({
///     "name": "Example Agent",
///     "description": "",
///     "capabilities": {"streaming": false, "pushNotifications": false, "extensions": []},
///     "skills": [],
///     "signatures": [{"protected": "e30", "signature": "AA"}],
/// });
/// let payload = card_payload(&card, CardForm::Spec).unwrap();
/// let expected = concat!(
///     r#"{"capabilities":{"pushNotifications":false,"streaming":false},"defaultInputModes":[],"#,
///     r#""defaultOutputModes":[],"description":"","name":"Example Agent","skills":[],"#,
///     r#""supportedInterfaces":[],"version":""}"#,
/// );
/// assert_eq!(String::from_utf8(payload).unwrap(), expected);
/// // a2a-sdk's form drops every empty value, REQUIRED or not.
/// let sdk = card_payload(&card, CardForm::CleanEmpty).unwrap();
/// assert_eq!(sdk, br#"{"capabilities":{"pushNotifications":false,"streaming":false},"name":"Example Agent"}"#);
/// ```
///
/// (The spec's example is a fragment: it shows no `version`, `supportedInterfaces` or input
/// modes, which are REQUIRED, so its full form has them at their defaults.)
pub fn card_payload(card: &Value, form: CardForm) -> Result<Vec<u8>, JcsError> {
    jcs::canonicalize(&card_form(card, form)?)
}

/// The card in `form` as a JSON value, before RFC 8785 (for tests and diagnostics).
pub fn card_form(card: &Value, form: CardForm) -> Result<Value, JcsError> {
    let Value::Object(members) = card else {
        return Err(JcsError::NotAnObject);
    };
    let mut spec = presence(members, AGENT_CARD, Some("signatures"));
    Ok(match form {
        CardForm::Spec => Value::Object(spec),
        CardForm::CleanEmpty => {
            spec.retain(|_, v| clean_empty(v));
            Value::Object(spec)
        }
    })
}

/// a2a-sdk's `_clean_empty`, in place: false when `value` is itself empty (and should go). Its
/// test is `is not None` after cleaning, so a `null` goes too (inside `params` it can be one).
fn clean_empty(value: &mut Value) -> bool {
    match value {
        Value::Null => false,
        Value::String(s) => !s.is_empty(),
        Value::Array(items) => {
            items.retain_mut(clean_empty);
            !items.is_empty()
        }
        Value::Object(members) => {
            members.retain(|_, v| clean_empty(v));
            !members.is_empty()
        }
        _ => true,
    }
}

// ----- the v1.0 AgentCard's field presence ----------------------------------------------------------

/// How protobuf tracks a field's presence (spec §5.7), as §8.4.1 uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Presence {
    /// `(google.api.field_behavior) = REQUIRED`: always in the canonical form.
    Required,
    /// The `optional` keyword, or a message field: present when set, whatever the value.
    Explicit,
    /// Any other field: left out at its default.
    Implicit,
}

/// A field's type, as far as presence and recursion need it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Type {
    Str,
    Bool,
    Strings,
    /// `map<string, string>`.
    StrMap,
    Message(&'static [Field]),
    Messages(&'static [Field]),
    /// `map<string, Message>`.
    MessageMap(&'static [Field]),
    /// `google.protobuf.Struct`: any JSON object, kept as it is.
    Struct,
}

/// One field of a message: its JSON (lowerCamelCase) and proto (snake_case) names.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field {
    pub(crate) json: &'static str,
    pub(crate) proto: &'static str,
    pub(crate) presence: Presence,
    pub(crate) ty: Type,
}

const fn field(json: &'static str, proto: &'static str, presence: Presence, ty: Type) -> Field {
    Field {
        json,
        proto,
        presence,
        ty,
    }
}

use Presence::{Explicit, Implicit, Required};
use Type::{Bool, Message, MessageMap, Messages, Str, StrMap, Strings, Struct};

// From spec/v1 (a2a.proto v1.0.1); `tests/card_presence.rs` checks this table against
// spec/v1/a2a.schema.json. A message-typed field has explicit presence in proto3.
pub(crate) static AGENT_CARD: &[Field] = &[
    field("name", "name", Required, Str),
    field("description", "description", Required, Str),
    field(
        "supportedInterfaces",
        "supported_interfaces",
        Required,
        Messages(AGENT_INTERFACE),
    ),
    field("provider", "provider", Explicit, Message(AGENT_PROVIDER)),
    field("version", "version", Required, Str),
    field("documentationUrl", "documentation_url", Explicit, Str),
    field(
        "capabilities",
        "capabilities",
        Required,
        Message(AGENT_CAPABILITIES),
    ),
    field(
        "securitySchemes",
        "security_schemes",
        Implicit,
        MessageMap(SECURITY_SCHEME),
    ),
    field(
        "securityRequirements",
        "security_requirements",
        Implicit,
        Messages(SECURITY_REQUIREMENT),
    ),
    field(
        "defaultInputModes",
        "default_input_modes",
        Required,
        Strings,
    ),
    field(
        "defaultOutputModes",
        "default_output_modes",
        Required,
        Strings,
    ),
    field("skills", "skills", Required, Messages(AGENT_SKILL)),
    field("iconUrl", "icon_url", Explicit, Str),
];

pub(crate) static AGENT_INTERFACE: &[Field] = &[
    field("url", "url", Required, Str),
    field("protocolBinding", "protocol_binding", Required, Str),
    field("tenant", "tenant", Implicit, Str),
    field("protocolVersion", "protocol_version", Required, Str),
];

pub(crate) static AGENT_PROVIDER: &[Field] = &[
    field("url", "url", Required, Str),
    field("organization", "organization", Required, Str),
];

pub(crate) static AGENT_CAPABILITIES: &[Field] = &[
    field("streaming", "streaming", Explicit, Bool),
    field("pushNotifications", "push_notifications", Explicit, Bool),
    field(
        "extensions",
        "extensions",
        Implicit,
        Messages(AGENT_EXTENSION),
    ),
    field("extendedAgentCard", "extended_agent_card", Explicit, Bool),
];

pub(crate) static AGENT_EXTENSION: &[Field] = &[
    field("uri", "uri", Implicit, Str),
    field("description", "description", Implicit, Str),
    field("required", "required", Implicit, Bool),
    field("params", "params", Explicit, Struct),
];

pub(crate) static AGENT_SKILL: &[Field] = &[
    field("id", "id", Required, Str),
    field("name", "name", Required, Str),
    field("description", "description", Required, Str),
    field("tags", "tags", Required, Strings),
    field("examples", "examples", Implicit, Strings),
    field("inputModes", "input_modes", Implicit, Strings),
    field("outputModes", "output_modes", Implicit, Strings),
    field(
        "securityRequirements",
        "security_requirements",
        Implicit,
        Messages(SECURITY_REQUIREMENT),
    ),
];

pub(crate) static SECURITY_REQUIREMENT: &[Field] = &[field(
    "schemes",
    "schemes",
    Implicit,
    MessageMap(STRING_LIST),
)];

pub(crate) static STRING_LIST: &[Field] = &[field("list", "list", Implicit, Strings)];

pub(crate) static SECURITY_SCHEME: &[Field] = &[
    field(
        "apiKeySecurityScheme",
        "api_key_security_scheme",
        Explicit,
        Message(API_KEY_SCHEME),
    ),
    field(
        "httpAuthSecurityScheme",
        "http_auth_security_scheme",
        Explicit,
        Message(HTTP_AUTH_SCHEME),
    ),
    field(
        "oauth2SecurityScheme",
        "oauth2_security_scheme",
        Explicit,
        Message(OAUTH2_SCHEME),
    ),
    field(
        "openIdConnectSecurityScheme",
        "open_id_connect_security_scheme",
        Explicit,
        Message(OPEN_ID_CONNECT_SCHEME),
    ),
    field(
        "mtlsSecurityScheme",
        "mtls_security_scheme",
        Explicit,
        Message(MUTUAL_TLS_SCHEME),
    ),
];

pub(crate) static API_KEY_SCHEME: &[Field] = &[
    field("description", "description", Implicit, Str),
    field("location", "location", Required, Str),
    field("name", "name", Required, Str),
];

pub(crate) static HTTP_AUTH_SCHEME: &[Field] = &[
    field("description", "description", Implicit, Str),
    field("scheme", "scheme", Required, Str),
    field("bearerFormat", "bearer_format", Implicit, Str),
];

pub(crate) static OAUTH2_SCHEME: &[Field] = &[
    field("description", "description", Implicit, Str),
    field("flows", "flows", Required, Message(OAUTH_FLOWS)),
    field("oauth2MetadataUrl", "oauth2_metadata_url", Implicit, Str),
];

pub(crate) static OPEN_ID_CONNECT_SCHEME: &[Field] = &[
    field("description", "description", Implicit, Str),
    field("openIdConnectUrl", "open_id_connect_url", Required, Str),
];

pub(crate) static MUTUAL_TLS_SCHEME: &[Field] =
    &[field("description", "description", Implicit, Str)];

pub(crate) static OAUTH_FLOWS: &[Field] = &[
    field(
        "authorizationCode",
        "authorization_code",
        Explicit,
        Message(AUTHORIZATION_CODE_FLOW),
    ),
    field(
        "clientCredentials",
        "client_credentials",
        Explicit,
        Message(CLIENT_CREDENTIALS_FLOW),
    ),
    field("implicit", "implicit", Explicit, Message(IMPLICIT_FLOW)),
    field("password", "password", Explicit, Message(PASSWORD_FLOW)),
    field(
        "deviceCode",
        "device_code",
        Explicit,
        Message(DEVICE_CODE_FLOW),
    ),
];

pub(crate) static AUTHORIZATION_CODE_FLOW: &[Field] = &[
    field("authorizationUrl", "authorization_url", Required, Str),
    field("tokenUrl", "token_url", Required, Str),
    field("refreshUrl", "refresh_url", Implicit, Str),
    field("scopes", "scopes", Required, StrMap),
    field("pkceRequired", "pkce_required", Implicit, Bool),
];

pub(crate) static CLIENT_CREDENTIALS_FLOW: &[Field] = &[
    field("tokenUrl", "token_url", Required, Str),
    field("refreshUrl", "refresh_url", Implicit, Str),
    field("scopes", "scopes", Required, StrMap),
];

pub(crate) static IMPLICIT_FLOW: &[Field] = &[
    field("authorizationUrl", "authorization_url", Implicit, Str),
    field("refreshUrl", "refresh_url", Implicit, Str),
    field("scopes", "scopes", Implicit, StrMap),
];

pub(crate) static PASSWORD_FLOW: &[Field] = &[
    field("tokenUrl", "token_url", Implicit, Str),
    field("refreshUrl", "refresh_url", Implicit, Str),
    field("scopes", "scopes", Implicit, StrMap),
];

pub(crate) static DEVICE_CODE_FLOW: &[Field] = &[
    field(
        "deviceAuthorizationUrl",
        "device_authorization_url",
        Required,
        Str,
    ),
    field("tokenUrl", "token_url", Required, Str),
    field("refreshUrl", "refresh_url", Implicit, Str),
    field("scopes", "scopes", Required, StrMap),
];

/// The messages of the table by name, for the test against the schema.
#[doc(hidden)]
pub fn presence_table() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    let messages: [(&str, &[Field]); 20] = [
        ("AgentCard", AGENT_CARD),
        ("AgentInterface", AGENT_INTERFACE),
        ("AgentProvider", AGENT_PROVIDER),
        ("AgentCapabilities", AGENT_CAPABILITIES),
        ("AgentExtension", AGENT_EXTENSION),
        ("AgentSkill", AGENT_SKILL),
        ("SecurityRequirement", SECURITY_REQUIREMENT),
        ("StringList", STRING_LIST),
        ("SecurityScheme", SECURITY_SCHEME),
        ("APIKeySecurityScheme", API_KEY_SCHEME),
        ("HTTPAuthSecurityScheme", HTTP_AUTH_SCHEME),
        ("OAuth2SecurityScheme", OAUTH2_SCHEME),
        ("OpenIdConnectSecurityScheme", OPEN_ID_CONNECT_SCHEME),
        ("MutualTlsSecurityScheme", MUTUAL_TLS_SCHEME),
        ("OAuthFlows", OAUTH_FLOWS),
        ("AuthorizationCodeOAuthFlow", AUTHORIZATION_CODE_FLOW),
        ("ClientCredentialsOAuthFlow", CLIENT_CREDENTIALS_FLOW),
        ("ImplicitOAuthFlow", IMPLICIT_FLOW),
        ("PasswordOAuthFlow", PASSWORD_FLOW),
        ("DeviceCodeOAuthFlow", DEVICE_CODE_FLOW),
    ];
    messages
        .iter()
        .map(|(name, fields)| {
            let fields = fields
                .iter()
                .map(|f| {
                    let presence = match (f.presence, f.ty) {
                        (Required, _) => "required",
                        (Explicit, Message(_) | Struct) => "message",
                        (Explicit, _) => "optional",
                        (Implicit, _) => "implicit",
                    };
                    (f.json, presence)
                })
                .collect();
            (*name, fields)
        })
        .collect()
}

/// The members of one message with presence applied: `skip` (the card's `signatures`) left out.
fn presence(
    members: &Map<String, Value>,
    fields: &[Field],
    skip: Option<&str>,
) -> Map<String, Value> {
    let mut out = Map::new();
    let known = |name: &str| fields.iter().find(|f| f.json == name || f.proto == name);
    for (name, value) in members {
        if skip == Some(name.as_str()) {
            continue;
        }
        let Some(field) = known(name) else {
            // Unknown to this version: kept as received.
            out.insert(name.clone(), value.clone());
            continue;
        };
        if value.is_null() {
            continue; // null is unset (ProtoJSON); a REQUIRED one gets its default below
        }
        if field.presence == Implicit && is_default(value, field.ty) {
            continue;
        }
        out.insert(name.clone(), nested(value, field.ty));
    }
    for field in fields.iter().filter(|f| f.presence == Required) {
        if !out.contains_key(field.json) && !out.contains_key(field.proto) {
            out.insert(field.json.to_owned(), default_of(field.ty));
        }
    }
    out
}

/// A value of a known field with presence applied inside it.
fn nested(value: &Value, ty: Type) -> Value {
    match (ty, value) {
        (Message(fields), Value::Object(members)) => Value::Object(presence(members, fields, None)),
        (Messages(fields), Value::Array(items)) => Value::Array(
            items
                .iter()
                .map(|item| match item {
                    Value::Object(members) => Value::Object(presence(members, fields, None)),
                    other => other.clone(),
                })
                .collect(),
        ),
        (MessageMap(fields), Value::Object(entries)) => Value::Object(
            entries
                .iter()
                .map(|(key, item)| {
                    let item = match item {
                        Value::Object(members) => Value::Object(presence(members, fields, None)),
                        other => other.clone(),
                    };
                    (key.clone(), item)
                })
                .collect(),
        ),
        // Scalars, lists of strings, string maps and Structs as they are (a value of the wrong
        // type too: the signer saw what we see).
        _ => value.clone(),
    }
}

/// Whether a value is its field's default (what an implicit-presence field leaves out).
fn is_default(value: &Value, ty: Type) -> bool {
    match (ty, value) {
        (Str, Value::String(s)) => s.is_empty(),
        (Bool, Value::Bool(b)) => !b,
        (Strings | Messages(_), Value::Array(items)) => items.is_empty(),
        (StrMap | MessageMap(_), Value::Object(entries)) => entries.is_empty(),
        // A message (or Struct) has explicit presence: set is set, even when empty.
        _ => false,
    }
}

/// A REQUIRED field's default, for a card that lacks it.
fn default_of(ty: Type) -> Value {
    match ty {
        Str => Value::String(String::new()),
        Bool => Value::Bool(false),
        Strings | Messages(_) => Value::Array(Vec::new()),
        StrMap | MessageMap(_) | Struct => Value::Object(Map::new()),
        Message(fields) => Value::Object(presence(&Map::new(), fields, None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(card: Value) -> Value {
        card_form(&card, CardForm::Spec).unwrap()
    }

    fn full(extra: Value) -> Value {
        let mut card = json!({
            "name": "a", "description": "d", "version": "1",
            "supportedInterfaces": [{"url": "http://x/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
            "skills": [],
        });
        if let (Value::Object(card), Value::Object(extra)) = (&mut card, extra) {
            card.extend(extra);
        }
        card
    }

    #[test]
    fn implicit_fields_at_their_default_are_left_out_explicit_ones_kept() {
        let card = full(json!({
            "capabilities": {"streaming": false, "extensions": [
                {"uri": "u", "description": "", "required": false, "params": {}},
            ]},
            "documentationUrl": "",
            "securitySchemes": {},
            "securityRequirements": [],
            "provider": {"url": "", "organization": ""},
        }));
        let form = spec(card);
        assert_eq!(
            form["capabilities"],
            json!({"streaming": false, "extensions": [{"uri": "u", "params": {}}]})
        );
        assert_eq!(form["documentationUrl"], json!(""));
        assert_eq!(form["provider"], json!({"url": "", "organization": ""}));
        assert!(form.get("securitySchemes").is_none());
        assert!(form.get("securityRequirements").is_none());
    }

    #[test]
    fn null_is_unset_and_a_missing_required_field_gets_its_default() {
        let form = spec(json!({"name": null, "iconUrl": null, "capabilities": null}));
        assert_eq!(
            form,
            json!({"name": "", "description": "", "version": "", "supportedInterfaces": [],
                   "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []})
        );
    }

    #[test]
    fn unknown_members_and_struct_contents_are_kept_as_received() {
        let card = full(json!({
            "futureMember": {"x": "", "y": []},
            "capabilities": {"extensions": [{"uri": "u", "params": {"empty": "", "list": [], "n": 0}}], "newFlag": false},
        }));
        let form = spec(card);
        assert_eq!(form["futureMember"], json!({"x": "", "y": []}));
        assert_eq!(form["capabilities"]["newFlag"], json!(false));
        assert_eq!(
            form["capabilities"]["extensions"][0]["params"],
            json!({"empty": "", "list": [], "n": 0})
        );
        let sdk = card_form(&form, CardForm::CleanEmpty).unwrap();
        assert_eq!(
            sdk["capabilities"]["extensions"][0]["params"],
            json!({"n": 0})
        );
        assert!(sdk.get("futureMember").is_none());
    }

    #[test]
    fn proto_names_are_read_like_json_names() {
        let form = spec(full(json!({"security_requirements": [], "icon_url": "i"})));
        assert!(form.get("security_requirements").is_none());
        assert_eq!(form["icon_url"], json!("i"));
        assert!(form.get("iconUrl").is_none());
    }

    #[test]
    fn security_schemes_and_requirements_are_walked() {
        let card = full(json!({
            "securitySchemes": {"k": {"apiKeySecurityScheme": {"description": "", "location": "header", "name": "X"}},
                                "o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "t", "refreshUrl": "", "scopes": {}}}}}},
            "securityRequirements": [{"schemes": {"k": {"list": []}}}],
        }));
        let form = spec(card);
        assert_eq!(
            form["securitySchemes"]["k"],
            json!({"apiKeySecurityScheme": {"location": "header", "name": "X"}})
        );
        assert_eq!(
            form["securitySchemes"]["o"]["oauth2SecurityScheme"]["flows"]["clientCredentials"],
            json!({"tokenUrl": "t", "scopes": {}})
        );
        assert_eq!(
            form["securityRequirements"],
            json!([{"schemes": {"k": {}}}])
        );
    }

    #[test]
    fn signatures_are_left_out_and_a_card_must_be_an_object() {
        let form = spec(full(
            json!({"signatures": [{"protected": "x", "signature": "y"}]}),
        ));
        assert!(form.get("signatures").is_none());
        assert_eq!(
            card_form(&json!([1]), CardForm::Spec),
            Err(JcsError::NotAnObject)
        );
    }
}
