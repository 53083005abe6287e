//! Naming rules, as pure functions with table tests (the shape of prost-build's `ident.rs`).
//!
//! Wire names in the A2A schema are ProtoJSON lowerCamelCase; Rust fields are snake_case, and the
//! snake_case form is also the proto field name that ProtoJSON parsers accept as an alias.

/// lowerCamelCase (or PascalCase) to snake_case: `contextId` -> `context_id`,
/// `oauth2MetadataUrl` -> `oauth2_metadata_url`. Digits stay with the word before them; runs of
/// capitals are one word (`HTTPAuth` -> `http_auth`). Non-alphanumerics become `_`.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1).copied();
            let boundary = match prev {
                None => false,
                Some('_') => false,
                Some(p) if p.is_ascii_lowercase() || p.is_ascii_digit() => true,
                // End of a run of capitals: `HTTPAuth` splits before the `A` of `Auth`.
                Some(p) if p.is_ascii_uppercase() => next.is_some_and(|n| n.is_ascii_lowercase()),
                Some(_) => false,
            };
            if boundary {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    out
}

/// Any of `snake_case`, `SCREAMING_CASE`, `kebab-case`, `camelCase`, `HTTP+JSON` to PascalCase:
/// `TASK_STATE_INPUT_REQUIRED` -> `TaskStateInputRequired`, `statusUpdate` -> `StatusUpdate`.
pub fn pascal_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for word in words(name) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    out
}

/// PascalCase to UPPER_SNAKE_CASE, the form of a `google.rpc.ErrorInfo` reason:
/// `QuotaExceeded` -> `QUOTA_EXCEEDED`.
pub fn upper_snake(name: &str) -> String {
    snake_case(name).to_ascii_uppercase()
}

/// PascalCase to words, the first capitalised, for a default message:
/// `QuotaExceeded` -> `Quota exceeded`.
pub fn sentence(name: &str) -> String {
    let text = snake_case(name).replace('_', " ");
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => text,
    }
}

/// Splits a name into lowercase-insensitive words at separators and camelCase humps.
fn words(name: &str) -> Vec<String> {
    // SCREAMING or lower names split on separators only; mixed-case names split at humps too.
    let mixed = name.chars().any(|c| c.is_ascii_lowercase())
        && name.chars().any(|c| c.is_ascii_uppercase());
    let base = if mixed {
        snake_case(name)
    } else {
        name.to_string()
    };
    base.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

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
