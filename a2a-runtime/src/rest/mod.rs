//! The HTTP+JSON (REST) binding of A2A v1 (spec §11), generic over a generated error table: the
//! same contract as the JSON-RPC side, on HTTP's terms.
//!
//! **Client** ([`client`], reached through [`crate::client::Decoder`] with
//! [`Binding::HttpJson`](crate::Binding::HttpJson)). What came back
//! ([`HttpReply`](crate::client::HttpReply): status, content type, body) and gives the method's result, the agent's typed error or the client error
//! saying what was malformed:
//!
//! - a 2xx status is the bare result (an empty body reads as `null`, which only a message with no
//!   members, `Empty`, accepts); one leading UTF-8 BOM is ignored, as on the JSON-RPC side. A
//!   2xx body that is a `google.rpc.Status` error object and nothing else (`{"error": {...}}`
//!   holding only `code`, `status`, `message` and `details`) is the error it names, read as
//!   below (the catch-all's `code` being the Status's own error `code`, else 500), not an empty
//!   result (a2a-sdk 1.3.0 reads it as one, and so loses the error);
//! - any other status carries a `google.rpc.Status` as `{"error": {code, status, message,
//!   details}}` (or bare, `{code, message, details}`, as grpc-gateway writes it). The first
//!   `google.rpc.ErrorInfo` in `details` whose domain is `a2a-protocol.org` (or that names no
//!   domain: absent, empty or not a string) names the error by its `reason` ([`rest_reason`]: the
//!   table's reason column, and for the standard JSON-RPC rows the reasons a2a-sdk writes,
//!   `INVALID_PARAMS` and the like); one whose domain is the agent's own error type names one of
//!   its errors (`CallError::Custom`). With no such ErrorInfo, or a reason no table names, the
//!   error is the table's catch-all (`Other`) whose `code` is the HTTP status and whose `data` is
//!   the whole body (so nothing the agent said is lost; `details()` reads its `details`).
//!   Several errors share one HTTP status, so the status alone never picks a variant; a reason
//!   in another domain is that domain's, not A2A's (reasons are unique within a domain only);
//! - an RFC 9457 `application/problem+json` body (the spec's own §6.4 examples) and any other JSON
//!   error body are the catch-all too, with the body as `data`;
//! - a body that is not JSON (an HTML page from a proxy) is malformed, with the HTTP status kept
//!   ([`ClientError::http_status`](crate::ClientError::http_status)).
//!
//! [`Decoder::stream`](crate::client::Decoder::stream) over HTTP+JSON decodes `message:stream` and `tasks/{id}:subscribe` replies: SSE whose
//! events each carry one bare result, and whose event named `error` carries a Status (its
//! catch-all's `code` is the Status's own HTTP `code`, the stream itself being a 200). An event
//! with empty data carries nothing and is skipped, as a2a-sdk's reader skips it.
//!
//! **Routes.** A method's HTTP rules ([`Route`], from the proto's `google.api.http` options, in
//! the generated method table) say its verb, its path template and whether the request is the
//! body; fields not in the path travel as query parameters ([`QueryParam`]).
//! [`encode_call`](crate::client::encode_call) builds the request for a method's params; the
//! generated `decode_rest_request` is the server's way back.
//!
//! **Server** ([`server`]). [`server::encode_rest_result`], [`server::encode_rest_error`],
//! [`server::encode_rest_custom_error`] and [`server::encode_rest_event`] write the responses
//! ([`server::RestResponse`]).

use crate::table::{ErrorRow, Method};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

pub mod client;
pub mod server;
// A2A 0.3's HTTP+JSON binding, by translation (the server's and the client's).
#[cfg_attr(not(all(feature = "server", feature = "client")), allow(dead_code))]
pub(crate) mod v0_3;

/// The content type the binding's requests and replies should carry (§11.1); `application/json`
/// is read alike.
pub const CONTENT_TYPE: &str = "application/a2a+json";

/// The ErrorInfo reasons of the standard JSON-RPC errors over REST, by code: the ones a2a-sdk
/// 1.3.0's server writes and its client maps back (`INVALID_PARAMS` and the like; the parse error
/// has none). A2A names only its own errors by reason.
pub const STANDARD_REASONS: [(i64, &str); 4] = a2a_facts::jsonrpc::STANDARD_REASONS;

/// The `google.rpc.ErrorInfo` reason that names a row over REST: its `reason` column, else for a
/// standard JSON-RPC row the reason of [`STANDARD_REASONS`]; `None` for a row with neither.
pub const fn rest_reason(row: &ErrorRow) -> Option<&'static str> {
    match row.reason {
        Some(reason) => Some(reason),
        None if row.standard => standard_reason(row.code),
        None => None,
    }
}

/// The reason of [`STANDARD_REASONS`] for a standard JSON-RPC code, if it has one.
pub use a2a_facts::jsonrpc::standard_reason;

// ----- routes -------------------------------------------------------------------------------------

/// One HTTP rule of a method: a `google.api.http` binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// The HTTP method (`GET`, `POST`, `DELETE`, ...).
    pub verb: &'static str,
    /// The path template as the proto writes it: literal segments, variables naming request
    /// fields by their proto name (`{id=*}`, `{task_id=*}`, `{tenant}`), and a `:verb` suffix on
    /// the last segment (`/tasks/{id=*}:cancel`).
    pub path: &'static str,
    /// What the body holds: `Some("*")` for the whole request, `Some(field)` for that field of
    /// it (by proto name); `None` for no body, the fields not in the path being query parameters.
    pub body: Option<&'static str>,
}

/// How a query parameter's value is read (§11.5): what JSON value it becomes in the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A string, an enum name, a timestamp or bytes: kept as a JSON string.
    Text,
    /// `true` or `false`.
    Bool,
    /// A decimal integer.
    Integer,
    /// A decimal number.
    Number,
    /// An enum: its name, or its number in decimal.
    Enum,
}

/// A request field that may travel as a query parameter (a scalar or a list of scalars).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryParam {
    /// The JSON (lowerCamelCase) name: the parameter's name.
    pub name: &'static str,
    /// The proto (snake_case) name, accepted too when it differs.
    pub alias: Option<&'static str>,
    /// How its value is read.
    pub kind: ParamKind,
    /// A repeated field: the parameter may repeat, or hold a comma-separated list.
    pub repeated: bool,
}

/// A method of the REST binding: its routes (the primary rule first, then the additional ones,
/// each `/{tenant}` form among them) and the fields that may travel as query parameters.
pub trait RestMethod: Method {
    /// The HTTP rules, in the proto's order.
    const ROUTES: &'static [Route];
    /// The params' scalar fields, by JSON name.
    const QUERY: &'static [QueryParam];
    /// Routes a server also takes the method at, besides [`Self::ROUTES`]; a client never sends
    /// them ([`encode_call`](crate::client::encode_call) uses `ROUTES` only). For A2A v1: `SubscribeToTask` under
    /// `POST`, which the spec's §11.3.2 prints and a2a-sdk's client sends, where the proto says
    /// `GET` (the method table's `http_also_served`).
    const ALSO_SERVED: &'static [Route] = &[];
}

/// One piece of a path template.
#[derive(Debug, PartialEq)]
pub(crate) enum Piece<'t> {
    Literal(&'t str),
    /// A variable: the field's proto name.
    Var(&'t str),
}

/// The segments of a template, each a list of pieces (a segment may be `{id=*}:cancel`).
pub(crate) fn template_segments(template: &str) -> Vec<Vec<Piece<'_>>> {
    template
        .trim_start_matches('/')
        .split('/')
        .map(|segment| {
            let mut pieces = Vec::new();
            let mut rest = segment;
            while !rest.is_empty() {
                match rest.find('{') {
                    Some(0) => {
                        let end = rest.find('}').unwrap_or(rest.len() - 1);
                        let inner = &rest[1..end];
                        let name = inner.split('=').next().unwrap_or(inner);
                        pieces.push(Piece::Var(name));
                        rest = &rest[(end + 1).min(rest.len())..];
                    }
                    Some(i) => {
                        pieces.push(Piece::Literal(&rest[..i]));
                        rest = &rest[i..];
                    }
                    None => {
                        pieces.push(Piece::Literal(rest));
                        rest = "";
                    }
                }
            }
            pieces
        })
        .collect()
}

/// The template's variables, as proto field names, in order.
pub fn path_variables(template: &str) -> Vec<&str> {
    template_segments(template)
        .into_iter()
        .flatten()
        .filter_map(|p| match p {
            Piece::Var(name) => Some(name),
            Piece::Literal(_) => None,
        })
        .collect()
}

/// Matches a request path (without its query) against a template: the variables' values by proto
/// field name, percent-decoded, or `None` when the path is not this route's. A variable matches
/// one non-empty segment (or the part of it before a `:verb` suffix).
pub fn match_path(template: &str, path: &str) -> Option<Vec<(String, String)>> {
    let segments = template_segments(template);
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    if segments.len() != parts.len() {
        return None;
    }
    // A `:verb` ends the last segment (`/tasks/t-1:cancel`); a template without one does not
    // match a path with one (values carry `:` percent-encoded), so `/tasks/{id=*}` is not
    // `/tasks/t-1:subscribe`.
    let template_verb = template
        .rsplit('/')
        .next()
        .is_some_and(|last| last.contains(':'));
    if !template_verb && parts.last().is_some_and(|last| last.contains(':')) {
        return None;
    }
    let mut values = Vec::new();
    for (pieces, part) in segments.iter().zip(parts) {
        let mut rest = part;
        for (i, piece) in pieces.iter().enumerate() {
            match piece {
                Piece::Literal(lit) => rest = rest.strip_prefix(lit)?,
                Piece::Var(name) => {
                    // Up to the next literal in this segment, else the rest of it.
                    let end = match pieces.get(i + 1) {
                        Some(Piece::Literal(next)) => rest.rfind(next)?,
                        _ => rest.len(),
                    };
                    let value = percent_decode(&rest[..end])?;
                    if value.is_empty() {
                        return None;
                    }
                    values.push((name.to_string(), value));
                    rest = &rest[end..];
                }
            }
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(values)
}

/// What [`percent_encode`] escapes: every byte but RFC 3986's unreserved characters (ASCII
/// letters and digits, `-`, `.`, `_`, `~`); non-ASCII bytes are always escaped.
const NOT_UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encodes a path segment or query value (RFC 3986: everything but the unreserved
/// characters, as `%XX` in upper case, byte by byte of the UTF-8).
pub fn percent_encode(text: &str) -> String {
    utf8_percent_encode(text, NOT_UNRESERVED).to_string()
}

/// Decodes `%XX` escapes; `None` for a broken escape or bytes that are not UTF-8.
// Hand-written, unlike the encoding: `percent_encoding::percent_decode_str` passes a broken
// escape (`%zz`, a `%` at the end) through as it is, where a route must refuse it.
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = text.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Splits a query string (without the `?`) into decoded name/value pairs; `+` is a space, as in
/// forms. A pair whose escapes are broken is dropped.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .filter_map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let plus = |s: &str| s.replace('+', " ");
            Some((percent_decode(&plus(name))?, percent_decode(&plus(value))?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule the hand-written encoder had: the unreserved characters as they are, every other
    /// byte of the UTF-8 as `%XX` in upper case.
    fn by_the_rule(text: &str) -> String {
        text.bytes()
            .map(
                |b| match b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                    true => char::from(b).to_string(),
                    false => format!("%{b:02X}"),
                },
            )
            .collect()
    }

    #[test]
    fn percent_encode_escapes_all_but_the_unreserved_characters() {
        for b in 0..=0x7f_u8 {
            let text = char::from(b).to_string();
            assert_eq!(percent_encode(&text), by_the_rule(&text), "byte {b:#04x}");
        }
        for text in ["é", "日本", "🦀", "\u{7f}\u{80}", "\u{10ffff}"] {
            assert_eq!(percent_encode(text), by_the_rule(text), "{text:?}");
        }
        assert_eq!(percent_encode("t-1:cancel"), "t-1%3Acancel");
        assert_eq!(
            percent_encode("a b/c?d=e&f#g+h%"),
            "a%20b%2Fc%3Fd%3De%26f%23g%2Bh%25"
        );
        assert_eq!(percent_encode("AZaz09-._~"), "AZaz09-._~");
        assert_eq!(percent_encode("tenant/é"), "tenant%2F%C3%A9");
        assert_eq!(percent_encode(""), "");
    }

    #[test]
    fn percent_decode_reads_what_percent_encode_writes_and_refuses_broken_escapes() {
        let text = "a b/c:é~%";
        assert_eq!(percent_decode(&percent_encode(text)).as_deref(), Some(text));
        assert_eq!(percent_decode("%zz"), None);
        assert_eq!(percent_decode("abc%4"), None);
        assert_eq!(percent_decode("%C3"), None);
    }
}
