//! Naming rules, as pure functions with table tests (the shape of prost-build's `ident.rs`).
//!
//! Wire names in the A2A schema are ProtoJSON lowerCamelCase; Rust fields are snake_case, and the
//! snake_case form is also the proto field name that ProtoJSON parsers accept as an alias.

use a2a_facts::case;
use std::borrow::Cow;

/// The word splitting and case rules are `a2a_facts::case`, shared with `#[derive(AgentError)]`.
/// The generator writes ASCII identifiers only: any other character is a separator here.
fn ascii(name: &str) -> Cow<'_, str> {
    if name.is_ascii() {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(
            name.chars()
                .map(|c| if c.is_ascii() { c } else { '_' })
                .collect(),
        )
    }
}

/// lowerCamelCase (or PascalCase) to snake_case: `contextId` -> `context_id`,
/// `oauth2MetadataUrl` -> `oauth2_metadata_url`. Digits stay with the word before them; runs of
/// capitals are one word (`HTTPAuth` -> `http_auth`). Non-alphanumerics become `_`.
pub fn snake_case(name: &str) -> String {
    case::snake_case(&ascii(name))
}

/// Any of `snake_case`, `SCREAMING_CASE`, `kebab-case`, `camelCase`, `HTTP+JSON` to PascalCase:
/// `TASK_STATE_INPUT_REQUIRED` -> `TaskStateInputRequired`, `statusUpdate` -> `StatusUpdate`.
pub fn pascal_case(name: &str) -> String {
    case::pascal_case(&ascii(name))
}

/// The `google.rpc.ErrorInfo` reason of a custom error row, as the derive makes it:
/// `QuotaExceeded` -> `QUOTA_EXCEEDED`.
pub use a2a_facts::case::upper_snake;

/// The default message of a custom error row, as the derive makes it: `QuotaExceeded` ->
/// `Quota exceeded`, `BadHTTPHeader` -> `Bad HTTP header`.
pub use a2a_facts::case::sentence;

/// Variant names for an enum's wire values: the longest run of whole `_`-separated words shared by
/// every value is dropped (`TASK_STATE_WORKING` -> `Working`), unless that would leave a value
/// empty or starting with a digit.
pub fn enum_variant_names(values: &[String]) -> Vec<String> {
    let split: Vec<Vec<&str>> = values.iter().map(|v| v.split('_').collect()).collect();
    let mut prefix = 0;
    if values.len() > 1 {
        'outer: while let Some(word) = split[0].get(prefix) {
            for parts in &split {
                // Keep at least one word, and never strip into a leading digit.
                if parts.len() <= prefix + 1 || parts[prefix] != *word {
                    break 'outer;
                }
                if parts[prefix + 1].starts_with(|c: char| c.is_ascii_digit()) {
                    break 'outer;
                }
            }
            prefix += 1;
        }
    }
    split
        .iter()
        .map(|parts| {
            let rest = parts[prefix..].join("_");
            let name = pascal_case(&rest);
            if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                format!("V{name}")
            } else {
                name
            }
        })
        .collect()
}

/// Rust keywords (strict, reserved and edition-2018+), which need `r#` as identifiers.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// True when `name` is a Rust keyword and must be written `r#name`.
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

/// True for a plain ASCII identifier: a letter or `_` first, then letters, digits, `_`.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_and_sentences_from_variant_names() {
        assert_eq!(upper_snake("QuotaExceeded"), "QUOTA_EXCEEDED");
        assert_eq!(upper_snake("HTTPTimeout"), "HTTP_TIMEOUT");
        assert_eq!(sentence("QuotaExceeded"), "Quota exceeded");
        assert_eq!(sentence("PlanExpired2"), "Plan expired2");
        assert_eq!(sentence("X"), "X");
        // Acronyms stay as they are, as in the derive's default messages.
        assert_eq!(sentence("BadHTTPHeader"), "Bad HTTP header");
    }

    #[test]
    fn snake_case_table() {
        let table = [
            ("contextId", "context_id"),
            ("id", "id"),
            ("oauth2MetadataUrl", "oauth2_metadata_url"),
            ("oauth2SecurityScheme", "oauth2_security_scheme"),
            ("mtlsSecurityScheme", "mtls_security_scheme"),
            ("openIdConnectUrl", "open_id_connect_url"),
            ("HTTPAuthSecurityScheme", "http_auth_security_scheme"),
            ("APIKeySecurityScheme", "api_key_security_scheme"),
            ("already_snake", "already_snake"),
            ("kebab-name", "kebab_name"),
            ("pkceRequired", "pkce_required"),
            // Generated names are ASCII: anything else separates words.
            ("caféId", "caf_id"),
        ];
        for (input, want) in table {
            assert_eq!(snake_case(input), want, "snake_case({input:?})");
        }
    }

    #[test]
    fn pascal_case_table() {
        let table = [
            ("statusUpdate", "StatusUpdate"),
            ("text", "Text"),
            ("INPUT_REQUIRED", "InputRequired"),
            ("input-required", "InputRequired"),
            ("HTTP+JSON", "HttpJson"),
            ("JSONRPC", "Jsonrpc"),
            ("oauth2SecurityScheme", "Oauth2SecurityScheme"),
            ("apiKeySecurityScheme", "ApiKeySecurityScheme"),
            ("content", "Content"),
            // A2A v0.3 `kind` values, the variant names of tagged unions.
            ("status-update", "StatusUpdate"),
            ("artifact-update", "ArtifactUpdate"),
            ("task", "Task"),
        ];
        for (input, want) in table {
            assert_eq!(pascal_case(input), want, "pascal_case({input:?})");
        }
    }

    #[test]
    fn enum_variants_drop_the_shared_prefix() {
        let values: Vec<String> = [
            "TASK_STATE_UNSPECIFIED",
            "TASK_STATE_WORKING",
            "TASK_STATE_INPUT_REQUIRED",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            enum_variant_names(&values),
            ["Unspecified", "Working", "InputRequired"]
        );
    }

    #[test]
    fn enum_variants_keep_a_word_and_avoid_leading_digits() {
        let one = vec!["ROLE_USER".to_string()];
        assert_eq!(enum_variant_names(&one), ["RoleUser"]);
        let digits: Vec<String> = ["V_1", "V_2"].map(String::from).to_vec();
        assert_eq!(enum_variant_names(&digits), ["V1", "V2"]);
        let lower: Vec<String> = ["submitted", "input-required"].map(String::from).to_vec();
        assert_eq!(enum_variant_names(&lower), ["Submitted", "InputRequired"]);
        let prefix_is_whole_value: Vec<String> = ["A", "A_B"].map(String::from).to_vec();
        assert_eq!(enum_variant_names(&prefix_is_whole_value), ["A", "AB"]);
    }

    #[test]
    fn keywords_and_identifiers() {
        assert!(is_keyword("type"));
        assert!(is_keyword("final"));
        assert!(!is_keyword("protected"));
        assert!(is_identifier("Task"));
        assert!(!is_identifier("Agent Card"));
        assert!(!is_identifier("1abc"));
        assert!(!is_identifier("_"));
    }
}
