//! The protocol facts that `a2a-codegen` (the generator), `a2a-macros` (`#[derive(AgentError)]`)
//! and `a2a-types` (the runtime of the generated code) must agree on, written once.
//!
//! Each module holds one kind of fact as constants and pure functions, with table tests:
//!
//! - [`jsonrpc`]: the reserved block of error codes, the server-error range, the standard errors;
//! - [`grpc`]: the `google.rpc.Code` statuses, their numbers and HTTP statuses;
//! - [`http`]: the HTTP statuses an error row may name;
//! - [`type_url`]: the `@type` URLs of the error details;
//! - [`custom`]: the defaults of an agent's own error rows;
//! - [`case`]: how a name splits into words, and the case conversions built on that.
//!
//! ```
//! use a2a_facts::{case, custom, grpc, jsonrpc, type_url};
//!
//! // A code an agent's own error may use, and one it may not.
//! assert!(!jsonrpc::RESERVED.contains(&-32050));
//! assert!(jsonrpc::RESERVED.contains(&-32601));
//! // The defaults of a row that names nothing but its code.
//! assert_eq!(custom::DEFAULT_GRPC, "UNKNOWN");
//! assert_eq!(custom::default_http(custom::DEFAULT_GRPC), 500);
//! assert_eq!(grpc::http_of("NOT_FOUND"), Some(404));
//! // The names a variant `QuotaExceeded { retry_after_secs }` of `BillingError` gets on the wire.
//! assert_eq!(case::upper_snake("QuotaExceeded"), "QUOTA_EXCEEDED");
//! assert_eq!(case::sentence("QuotaExceeded"), "Quota exceeded");
//! assert_eq!(case::lower_camel("retry_after_secs"), "retryAfterSecs");
//! assert_eq!(
//!     type_url::fields("BillingError", "QuotaExceeded"),
//!     "type.a2a-codegen/BillingError.QuotaExceeded"
//! );
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod jsonrpc {
    //! JSON-RPC 2.0 error codes (JSON-RPC 2.0 §5.1).
    //!
    //! ```
    //! use a2a_facts::jsonrpc;
    //!
    //! assert_eq!(jsonrpc::standard_message(jsonrpc::METHOD_NOT_FOUND), Some("Method not found"));
    //! assert!(jsonrpc::SERVER_ERRORS.contains(&-32001)); // where A2A puts its own errors
    //! assert_eq!(jsonrpc::RESERVED_TEXT, "-32768..=-32100");
    //! ```

    use core::ops::RangeInclusive;

    /// The codes JSON-RPC 2.0 reserves for pre-defined errors ("-32768 to -32000"): the reserved
    /// block [`RESERVED`] and the server-error range [`SERVER_ERRORS`].
    pub const PRE_DEFINED: RangeInclusive<i64> = -32768..=-32000;
    /// [`PRE_DEFINED`] as diagnostics write it.
    pub const PRE_DEFINED_TEXT: &str = "-32768..=-32000";

    /// The reserved block, which holds the five standard errors: no table row outside the
    /// JSON-RPC ones, and no agent's own error, may use a code here.
    pub const RESERVED: RangeInclusive<i64> = -32768..=-32100;
    /// [`RESERVED`] as diagnostics write it (for `const` contexts, where it cannot be formatted).
    pub const RESERVED_TEXT: &str = "-32768..=-32100";

    /// The `google.rpc.ErrorInfo` reasons of the standard JSON-RPC errors over HTTP+JSON, by
    /// code. A2A gives reasons to its own errors only (§11.6); a2a-sdk 1.3.0's REST server writes
    /// these (the name in UPPER_SNAKE_CASE, `INTERNAL_ERROR` for the internal error) and its
    /// client maps them back, so readers and writers use them too, and no agent's own error may
    /// take one. The parse error has none.
    pub const STANDARD_REASONS: [(i64, &str); 4] = [
        (INVALID_REQUEST, "INVALID_REQUEST"),
        (METHOD_NOT_FOUND, "METHOD_NOT_FOUND"),
        (INVALID_PARAMS, "INVALID_PARAMS"),
        (INTERNAL_ERROR, "INTERNAL_ERROR"),
    ];

    /// The reason of [`STANDARD_REASONS`] for a standard JSON-RPC code, if it has one.
    pub const fn standard_reason(code: i64) -> Option<&'static str> {
        let mut i = 0;
        while i < STANDARD_REASONS.len() {
            if STANDARD_REASONS[i].0 == code {
                return Some(STANDARD_REASONS[i].1);
            }
            i += 1;
        }
        None
    }

    /// "Reserved for implementation-defined server-errors": the A2A error table's codes, and the
    /// codes of an agent's own errors that it leaves free.
    pub const SERVER_ERRORS: RangeInclusive<i64> = -32099..=-32000;
    /// [`SERVER_ERRORS`] as diagnostics write it.
    pub const SERVER_ERRORS_TEXT: &str = "-32099..=-32000";

    /// The body is not JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// The body is JSON but not a valid request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// No such method.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// The params do not fit the method.
    pub const INVALID_PARAMS: i64 = -32602;
    /// The server failed.
    pub const INTERNAL_ERROR: i64 = -32603;

    /// The five standard errors with the message JSON-RPC 2.0 gives each, all inside
    /// [`RESERVED`].
    pub const STANDARD: [(i64, &str); 5] = [
        (PARSE_ERROR, "Parse error"),
        (INVALID_REQUEST, "Invalid Request"),
        (METHOD_NOT_FOUND, "Method not found"),
        (INVALID_PARAMS, "Invalid params"),
        (INTERNAL_ERROR, "Internal error"),
    ];

    /// The message of a standard error's code, or `None` for any other code.
    pub fn standard_message(code: i64) -> Option<&'static str> {
        STANDARD
            .iter()
            .find(|(c, _)| *c == code)
            .map(|(_, message)| *message)
    }
}

pub mod grpc {
    //! The gRPC status codes of `google.rpc.Code`, with the HTTP status that file documents for
    //! each.
    //!
    //! ```
    //! use a2a_facts::grpc;
    //!
    //! let status = grpc::by_name("RESOURCE_EXHAUSTED").unwrap();
    //! assert_eq!((status.number, status.http), (8, 429));
    //! assert_eq!(grpc::by_number(5).map(|s| s.name), Some("NOT_FOUND"));
    //! assert!(grpc::names_list().starts_with("OK, CANCELLED, UNKNOWN, "));
    //! ```

    /// One gRPC status code.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Status {
        /// The name (`NOT_FOUND`), as error tables write it.
        pub name: &'static str,
        /// The number on the wire (`5`).
        pub number: i32,
        /// The HTTP status `google.rpc.Code` maps it to (`404`).
        pub http: u16,
    }

    const fn status(name: &'static str, number: i32, http: u16) -> Status {
        Status { name, number, http }
    }

    /// The 17 status codes, in number order.
    pub const STATUSES: [Status; 17] = [
        status("OK", 0, 200),
        status("CANCELLED", 1, 499),
        status("UNKNOWN", 2, 500),
        status("INVALID_ARGUMENT", 3, 400),
        status("DEADLINE_EXCEEDED", 4, 504),
        status("NOT_FOUND", 5, 404),
        status("ALREADY_EXISTS", 6, 409),
        status("PERMISSION_DENIED", 7, 403),
        status("RESOURCE_EXHAUSTED", 8, 429),
        status("FAILED_PRECONDITION", 9, 400),
        status("ABORTED", 10, 409),
        status("OUT_OF_RANGE", 11, 400),
        status("UNIMPLEMENTED", 12, 501),
        status("INTERNAL", 13, 500),
        status("UNAVAILABLE", 14, 503),
        status("DATA_LOSS", 15, 500),
        status("UNAUTHENTICATED", 16, 401),
    ];

    /// The status of a name (case-sensitive, as `google.rpc.Code` spells it).
    pub fn by_name(name: &str) -> Option<&'static Status> {
        STATUSES.iter().find(|s| s.name == name)
    }

    /// The status of a number.
    pub fn by_number(number: i32) -> Option<&'static Status> {
        STATUSES.iter().find(|s| s.number == number)
    }

    /// The HTTP status of a status name, or `None` when it names no status.
    pub fn http_of(name: &str) -> Option<u16> {
        by_name(name).map(|s| s.http)
    }

    /// Every name in number order, joined by `", "`, for a diagnostic that lists them.
    pub fn names_list() -> String {
        STATUSES
            .iter()
            .map(|s| s.name)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

pub mod http {
    //! HTTP statuses.
    //!
    //! ```
    //! assert!(a2a_facts::http::STATUS_RANGE.contains(&429));
    //! assert!(!a2a_facts::http::STATUS_RANGE.contains(&600));
    //! ```

    /// The statuses an error row may name.
    pub const STATUS_RANGE: core::ops::RangeInclusive<u16> = 100..=599;
}

pub mod type_url {
    //! The `@type` URLs of the objects in an A2A v1 error's `data` array (the ProtoJSON form of
    //! `google.protobuf.Any`).
    //!
    //! ```
    //! use a2a_facts::type_url;
    //!
    //! assert_eq!(type_url::ERROR_INFO, "type.googleapis.com/google.rpc.ErrorInfo");
    //! assert_eq!(type_url::fields("BillingError", "PlanExpired"), "type.a2a-codegen/BillingError.PlanExpired");
    //! ```

    /// `google.rpc.ErrorInfo`: a reason, a domain, string metadata.
    pub const ERROR_INFO: &str = "type.googleapis.com/google.rpc.ErrorInfo";
    /// `google.rpc.BadRequest`: one violation per offending field.
    pub const BAD_REQUEST: &str = "type.googleapis.com/google.rpc.BadRequest";
    /// The prefix of the fields object of an agent's own error, followed by `<Enum>.<Variant>`.
    pub const FIELDS_PREFIX: &str = "type.a2a-codegen/";

    /// The type URL of the fields object of variant `variant` of the error enum `domain`.
    pub fn fields(domain: &str, variant: &str) -> String {
        format!("{FIELDS_PREFIX}{domain}.{variant}")
    }
}

pub mod custom {
    //! The defaults of an agent's own error row (a row of a custom error table, or a variant of
    //! `#[derive(AgentError)]`) that gives only its name and code. The other defaults are names
    //! ([`crate::case`]): the message is [`sentence`](crate::case::sentence) of the name, the
    //! `ErrorInfo` reason [`upper_snake`](crate::case::upper_snake), which (given or defaulted)
    //! must pass [`is_upper_snake`](crate::case::is_upper_snake).
    //!
    //! ```
    //! use a2a_facts::custom;
    //!
    //! assert_eq!(custom::default_http("RESOURCE_EXHAUSTED"), 429);
    //! assert_eq!(custom::default_http("NO_SUCH_STATUS"), 500);
    //! ```

    /// The gRPC status of a row that names none.
    pub const DEFAULT_GRPC: &str = "UNKNOWN";

    /// The HTTP status of [`DEFAULT_GRPC`].
    pub const DEFAULT_HTTP: u16 = 500;

    /// The message of an error whose code no row names, when the agent sent none.
    pub const UNLISTED_MESSAGE: &str = "Unknown error";

    /// The HTTP status of a row that names none: the one `google.rpc.Code` gives its gRPC
    /// status, or [`DEFAULT_HTTP`] when the name is no status.
    pub fn default_http(grpc: &str) -> u16 {
        crate::grpc::http_of(grpc).unwrap_or(DEFAULT_HTTP)
    }
}

pub mod case {
    //! Names: how one splits into words, and the conversions built on that.
    //!
    //! A word ends at a lowercase letter or a digit followed by an uppercase letter
    //! (`contextId`, `Oauth2Failed`), at the end of a run of capitals (`HTTPAuth` is `HTTP` +
    //! `Auth`), and at anything not alphanumeric (`_`, `-`, `+`, ...), which is dropped. Digits
    //! stay with the word before them. Letters are Unicode letters; the generator, which writes
    //! ASCII identifiers only, treats any other character as a separator before calling these.
    //!
    //! ```
    //! use a2a_facts::case;
    //!
    //! assert_eq!(case::words("HTTPAuthScheme"), ["HTTP", "Auth", "Scheme"]);
    //! assert_eq!(case::snake_case("oauth2MetadataUrl"), "oauth2_metadata_url");
    //! assert_eq!(case::upper_snake("BadHTTPHeader"), "BAD_HTTP_HEADER");
    //! assert!(case::is_upper_snake("BAD_HTTP_HEADER") && !case::is_upper_snake("bad-header"));
    //! assert_eq!(case::pascal_case("TASK_STATE_INPUT_REQUIRED"), "TaskStateInputRequired");
    //! assert_eq!(case::lower_camel("retry_after_secs"), "retryAfterSecs");
    //! assert_eq!(case::sentence("BadHTTPHeader"), "Bad HTTP header");
    //! ```

    /// The words of a name, their case kept.
    pub fn words(name: &str) -> Vec<&str> {
        let chars: Vec<(usize, char)> = name.char_indices().collect();
        let mut words = Vec::new();
        let mut start: Option<usize> = None;
        for (i, &(at, c)) in chars.iter().enumerate() {
            if !c.is_alphanumeric() {
                if let Some(s) = start.take() {
                    words.push(&name[s..at]);
                }
                continue;
            }
            if c.is_uppercase() {
                if let Some(s) = start {
                    let prev = chars[i - 1].1;
                    let next = chars.get(i + 1).map(|&(_, n)| n);
                    let boundary = prev.is_lowercase()
                        || prev.is_ascii_digit()
                        || (prev.is_uppercase() && next.is_some_and(char::is_lowercase));
                    if boundary {
                        words.push(&name[s..at]);
                        start = Some(at);
                    }
                }
            }
            start.get_or_insert(at);
        }
        if let Some(s) = start {
            words.push(&name[s..]);
        }
        words
    }

    /// snake_case: the words in lowercase, joined by `_` (`contextId` -> `context_id`,
    /// `HTTPAuth` -> `http_auth`, `kebab-name` -> `kebab_name`).
    pub fn snake_case(name: &str) -> String {
        words(name)
            .iter()
            .map(|w| w.to_lowercase())
            .collect::<Vec<_>>()
            .join("_")
    }

    /// UPPER_SNAKE_CASE, the form of a `google.rpc.ErrorInfo` reason: the words in uppercase,
    /// joined by `_` (`QuotaExceeded` -> `QUOTA_EXCEEDED`, `HTTPTimeout` -> `HTTP_TIMEOUT`).
    pub fn upper_snake(name: &str) -> String {
        words(name)
            .iter()
            .map(|w| w.to_uppercase())
            .collect::<Vec<_>>()
            .join("_")
    }

    /// The rule [`is_upper_snake`] checks, as diagnostics write it.
    pub const UPPER_SNAKE_PATTERN: &str = "[A-Z][A-Z0-9_]*";

    /// Whether `name` is UPPER_SNAKE_CASE, the form `google.rpc.ErrorInfo` asks of a `reason`:
    /// an ASCII capital, then ASCII capitals, digits and `_` ([`UPPER_SNAKE_PATTERN`];
    /// `QUOTA_EXCEEDED`, `V2`, not `quota_exceeded`, `Quota`, `2FA` or the empty string).
    /// `error_details.proto` also says a reason *should* be at most 63 characters and not end
    /// in `_`; those are advice, not checked here. A `const fn`, so that compile-time checks
    /// can use it.
    pub const fn is_upper_snake(name: &str) -> bool {
        let bytes = name.as_bytes();
        if bytes.is_empty() || !bytes[0].is_ascii_uppercase() {
            return false;
        }
        let mut i = 1;
        while i < bytes.len() {
            let b = bytes[i];
            if !(b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_') {
                return false;
            }
            i += 1;
        }
        true
    }

    /// PascalCase, the form of a Rust variant or type name: each word capitalised, the rest of it
    /// in lowercase (`TASK_STATE_INPUT_REQUIRED` -> `TaskStateInputRequired`, `statusUpdate` ->
    /// `StatusUpdate`, `HTTP+JSON` -> `HttpJson`). A name in one case (`SCREAMING_CASE`,
    /// `kebab-case`, `JSONRPC`) splits at separators only, so `HTTP2X` stays one word.
    pub fn pascal_case(name: &str) -> String {
        let mixed = name.chars().any(char::is_lowercase) && name.chars().any(char::is_uppercase);
        let split: Vec<&str> = if mixed {
            words(name)
        } else {
            name.split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect()
        };
        let mut out = String::with_capacity(name.len());
        for word in split {
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                out.extend(first.to_uppercase());
                out.push_str(&chars.as_str().to_lowercase());
            }
        }
        out
    }

    /// lowerCamelCase, the form of an A2A member name, from a snake_case Rust name: `_` dropped
    /// and the letter after it capitalised (`retry_after_secs` -> `retryAfterSecs`, `_private`
    /// -> `private`). A name that is already camelCase stays as it is; a name of underscores only
    /// is kept rather than made empty.
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
            name.to_string()
        } else {
            out
        }
    }

    /// The name in words, the default message of an error row: the first word capitalised, the
    /// others in lowercase unless they are acronyms (`PlanExpired` -> `Plan expired`,
    /// `BadHTTPHeader` -> `Bad HTTP header`).
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_texts_say_the_ranges() {
        let text = |r: &core::ops::RangeInclusive<i64>| format!("{}..={}", r.start(), r.end());
        assert_eq!(text(&jsonrpc::PRE_DEFINED), jsonrpc::PRE_DEFINED_TEXT);
        assert_eq!(text(&jsonrpc::RESERVED), jsonrpc::RESERVED_TEXT);
        assert_eq!(text(&jsonrpc::SERVER_ERRORS), jsonrpc::SERVER_ERRORS_TEXT);
    }

    #[test]
    fn the_reserved_block_and_the_server_errors_make_the_pre_defined_range() {
        assert_eq!(jsonrpc::RESERVED.start(), jsonrpc::PRE_DEFINED.start());
        assert_eq!(
            *jsonrpc::RESERVED.end() + 1,
            *jsonrpc::SERVER_ERRORS.start()
        );
        assert_eq!(jsonrpc::SERVER_ERRORS.end(), jsonrpc::PRE_DEFINED.end());
        for (code, _) in jsonrpc::STANDARD {
            assert!(jsonrpc::RESERVED.contains(&code), "{code}");
        }
        assert_eq!(jsonrpc::standard_message(-32700), Some("Parse error"));
        assert_eq!(jsonrpc::standard_message(-32000), None);
    }

    #[test]
    fn grpc_table() {
        for (i, s) in grpc::STATUSES.iter().enumerate() {
            assert_eq!(s.number, i as i32, "{} is in number order", s.name);
            assert_eq!(grpc::by_name(s.name), Some(s));
            assert_eq!(grpc::by_number(s.number), Some(s));
            assert!(http::STATUS_RANGE.contains(&s.http), "{}", s.name);
        }
        for (name, http) in [
            ("OK", 200),
            ("CANCELLED", 499),
            ("UNKNOWN", 500),
            ("INVALID_ARGUMENT", 400),
            ("NOT_FOUND", 404),
            ("PERMISSION_DENIED", 403),
            ("RESOURCE_EXHAUSTED", 429),
            ("UNIMPLEMENTED", 501),
            ("UNAVAILABLE", 503),
            ("DEADLINE_EXCEEDED", 504),
            ("UNAUTHENTICATED", 401),
        ] {
            assert_eq!(grpc::http_of(name), Some(http), "{name}");
        }
        assert_eq!(grpc::http_of("not_found"), None);
        assert_eq!(grpc::by_number(17), None);
        assert_eq!(grpc::names_list().matches(", ").count(), 16);
        assert_eq!(
            grpc::http_of(custom::DEFAULT_GRPC),
            Some(custom::DEFAULT_HTTP)
        );
    }

    #[test]
    fn words_table() {
        for (name, want) in [
            ("contextId", &["context", "Id"][..]),
            (
                "HTTPAuthSecurityScheme",
                &["HTTP", "Auth", "Security", "Scheme"],
            ),
            ("Oauth2Failed", &["Oauth2", "Failed"]),
            ("oauth2MetadataUrl", &["oauth2", "Metadata", "Url"]),
            ("TASK_STATE_WORKING", &["TASK", "STATE", "WORKING"]),
            ("HTTP+JSON", &["HTTP", "JSON"]),
            ("__a__b__", &["a", "b"]),
            ("ÜberFehler", &["Über", "Fehler"]),
            ("", &[]),
        ] {
            assert_eq!(case::words(name), want, "{name}");
        }
    }

    #[test]
    fn snake_case_table() {
        for (name, want) in [
            ("contextId", "context_id"),
            ("id", "id"),
            ("oauth2MetadataUrl", "oauth2_metadata_url"),
            ("mtlsSecurityScheme", "mtls_security_scheme"),
            ("openIdConnectUrl", "open_id_connect_url"),
            ("HTTPAuthSecurityScheme", "http_auth_security_scheme"),
            ("APIKeySecurityScheme", "api_key_security_scheme"),
            ("already_snake", "already_snake"),
            ("kebab-name", "kebab_name"),
            ("trailing_", "trailing"),
            ("-leading", "leading"),
        ] {
            assert_eq!(case::snake_case(name), want, "{name}");
        }
    }

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
            assert_eq!(case::upper_snake(name), want, "{name}");
        }
    }

    #[test]
    fn is_upper_snake_table() {
        for name in [
            "QUOTA_EXCEEDED",
            "A",
            "V2",
            "HTTP_2_TIMEOUT",
            "TRAILING_",
            "A__B",
        ] {
            assert!(case::is_upper_snake(name), "{name}");
        }
        for name in [
            "",
            "_A",
            "2FA",
            "quota_exceeded",
            "Quota",
            "QUOTA-EXCEEDED",
            "QUOTA EXCEEDED",
            "ÜBER",
            "A\u{0}",
        ] {
            assert!(!case::is_upper_snake(name), "{name:?}");
        }
        // Every default reason of an ASCII name passes.
        for name in [
            "QuotaExceeded",
            "HTTPTimeout",
            "Oauth2Failed",
            "V2",
            "_Leading",
        ] {
            assert!(case::is_upper_snake(&case::upper_snake(name)), "{name}");
        }
    }

    #[test]
    fn pascal_case_table() {
        for (name, want) in [
            ("statusUpdate", "StatusUpdate"),
            ("text", "Text"),
            ("INPUT_REQUIRED", "InputRequired"),
            ("input-required", "InputRequired"),
            ("HTTP+JSON", "HttpJson"),
            ("JSONRPC", "Jsonrpc"),
            ("HTTP2X", "Http2x"),
            ("oauth2SecurityScheme", "Oauth2SecurityScheme"),
            ("apiKeySecurityScheme", "ApiKeySecurityScheme"),
            ("status-update", "StatusUpdate"),
        ] {
            assert_eq!(case::pascal_case(name), want, "{name}");
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
            assert_eq!(case::lower_camel(name), want, "{name}");
        }
    }

    #[test]
    fn sentence_table() {
        for (name, want) in [
            ("QuotaExceeded", "Quota exceeded"),
            ("PlanExpired", "Plan expired"),
            ("PlanExpired2", "Plan expired2"),
            ("Gone", "Gone"),
            ("X", "X"),
            ("HTTPTimeout", "HTTP timeout"),
            ("BadHTTPHeader", "Bad HTTP header"),
            ("Oauth2Failed", "Oauth2 failed"),
        ] {
            assert_eq!(case::sentence(name), want, "{name}");
        }
    }

    #[test]
    fn type_urls() {
        assert_eq!(
            type_url::fields("BillingError", "QuotaExceeded"),
            "type.a2a-codegen/BillingError.QuotaExceeded"
        );
        assert!(type_url::ERROR_INFO.ends_with("google.rpc.ErrorInfo"));
        assert!(type_url::BAD_REQUEST.ends_with("google.rpc.BadRequest"));
    }
}
