//! Name conversions: a variant's reason and default message, a field's member name.
//!
//! Words split the way `a2a-codegen` splits names: at a lowercase-or-digit to uppercase hump, at
//! the end of a run of capitals (`HTTPError` is `HTTP` + `Error`), and at `_`. Digits stay with
//! the word before them.

/// The words of a Rust identifier, with their case kept.
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        if c.is_uppercase() && !current.is_empty() {
            let prev = chars[i - 1];
            let next = chars.get(i + 1).copied();
            let boundary = prev.is_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_uppercase() && next.is_some_and(char::is_lowercase));
            if boundary {
                words.push(std::mem::take(&mut current));
            }
        }
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// The `ErrorInfo` reason of a variant: its name in UPPER_SNAKE_CASE (`QuotaExceeded` ->
/// `QUOTA_EXCEEDED`, `HTTPTimeout` -> `HTTP_TIMEOUT`).
pub fn upper_snake(name: &str) -> String {
    words(name)
        .iter()
        .map(|w| w.to_uppercase())
        .collect::<Vec<_>>()
        .join("_")
}

/// The default message of a variant: its name in words, the first capitalised and the others in
/// lowercase unless they are acronyms (`PlanExpired` -> `Plan expired`, `BadHTTPHeader` -> `Bad
/// HTTP header`).
pub fn sentence(name: &str) -> String {
    let words = words(name);
    let mut out = String::with_capacity(name.len() + words.len());
    for (i, word) in words.iter().enumerate() {
        let acronym = word.chars().count() > 1 && !word.chars().any(char::is_lowercase);
        if i > 0 {
            out.push(' ');
        }
        if acronym {
            out.push_str(word);
        } else if i == 0 {
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                out.extend(first.to_uppercase());
                out.push_str(&chars.as_str().to_lowercase());
            }
        } else {
            out.push_str(&word.to_lowercase());
        }
    }
    out
}

/// The member name of a field: lowerCamelCase of its (unraw) Rust name, as every A2A member
/// (`retry_after_secs` -> `retryAfterSecs`, `type` -> `type`, `_private` -> `private`). A name
/// that is already camelCase stays as it is.
pub fn lower_camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for part in name.split('_').filter(|p| !p.is_empty()) {
        if out.is_empty() {
            out.push_str(part);
        } else {
            let mut chars = part.chars();
            if let Some(first) = chars.next() {
                out.extend(first.to_uppercase());
                out.push_str(chars.as_str());
            }
        }
    }
    if out.is_empty() {
        // Only underscores: keep the name rather than send an empty member.
        name.to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upper_snake_table() {
        for (name, want) in [
            ("QuotaExceeded", "QUOTA_EXCEEDED"),
            ("PlanExpired", "PLAN_EXPIRED"),
            ("Gone", "GONE"),
            ("HTTPTimeout", "HTTP_TIMEOUT"),
            ("BadHTTPHeader", "BAD_HTTP_HEADER"),
            ("Oauth2Failed", "OAUTH2_FAILED"),
            ("V2", "V2"),
            ("ABC", "ABC"),
        ] {
            assert_eq!(upper_snake(name), want, "{name}");
        }
    }

    #[test]
    fn sentence_table() {
        for (name, want) in [
            ("QuotaExceeded", "Quota exceeded"),
            ("PlanExpired", "Plan expired"),
            ("Gone", "Gone"),
            ("HTTPTimeout", "HTTP timeout"),
            ("BadHTTPHeader", "Bad HTTP header"),
            ("Oauth2Failed", "Oauth2 failed"),
        ] {
            assert_eq!(sentence(name), want, "{name}");
        }
    }

    #[test]
    fn lower_camel_table() {
        for (name, want) in [
            ("retry_after_secs", "retryAfterSecs"),
            ("type", "type"),
            ("id", "id"),
            ("_private", "private"),
            ("url_v2", "urlV2"),
            ("alreadyCamel", "alreadyCamel"),
            ("a__b", "aB"),
            ("_", "_"),
        ] {
            assert_eq!(lower_camel(name), want, "{name}");
        }
    }
}
