//! Which A2A protocol version a peer speaks, and so which generated module decodes its replies.
//!
//! A2A v1 carries the version in the `A2A-Version` request header (or a query parameter of the
//! same name), as `Major.Minor` (spec §3.6). A server that receives an empty or missing value
//! treats the request as 0.3, which is how v0.3 clients, which never send it, keep working.
//!
//! # Negotiating as a client
//!
//! 1. Read the agent card. A v1 card lists `supportedInterfaces`, each with its
//!    `protocolVersion` (the first interface is the agent's preferred one); a v0.3 card has one
//!    top-level `protocolVersion` (`"0.3.0"`). [`ProtocolVersion::from_agent_card`] picks the
//!    newest version the card declares that this crate speaks over JSON-RPC;
//!    [`pick_interface`] picks the interface itself (URL, binding, version, tenant) for the
//!    bindings a client speaks, in its order of preference (JSON-RPC, HTTP+JSON).
//! 2. Send every request with `A2A-Version: <version>` ([`ProtocolVersion::HEADER`],
//!    [`ProtocolVersion::as_str`]) and decode the replies with the module for that version
//!    ([`ProtocolVersion::V1_0`]: the generated `v1` module, `a2a_types::v1`; [`ProtocolVersion::V0_3`]: `a2a_types::v0_3`).
//! 3. An agent that does not serve the version answers `VersionNotSupported` (-32009) on v1;
//!    retry with an older version the card lists, if any.
//!
//! Without a card, send no header: the agent then speaks 0.3.
//!
//! ```
//! use a2a_runtime::version::ProtocolVersion;
//!
//! assert_eq!(ProtocolVersion::parse("1.0"), Ok(ProtocolVersion::V1_0));
//! assert_eq!(ProtocolVersion::parse(""), Ok(ProtocolVersion::V0_3)); // spec §3.6
//! let card = serde_json::json!({"supportedInterfaces": [
//!     {"url": "https://a.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
//!     {"url": "https://a.example/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
//! ]});
//! assert_eq!(ProtocolVersion::from_agent_card(&card), Some(ProtocolVersion::V1_0));
//! ```

use crate::table::ErrorTable;
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// An A2A protocol version this crate has a module for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ProtocolVersion {
    /// A2A 0.3.x: the generated module `v0_3`; what an empty or missing `A2A-Version` means.
    V0_3,
    /// A2A 1.0.x: the generated module `v1`.
    V1_0,
}

/// A version string this crate cannot serve, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedVersion {
    /// The value as given.
    pub value: String,
}

impl fmt::Display for UnsupportedVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "A2A version {:?} is not supported (this crate speaks 0.3 and 1.0)",
            self.value
        )
    }
}

impl std::error::Error for UnsupportedVersion {}

impl ProtocolVersion {
    /// The request header (and query parameter) that carries the version.
    pub const HEADER: &'static str = "A2A-Version";

    /// Every version, oldest first.
    pub const ALL: [ProtocolVersion; 2] = [ProtocolVersion::V0_3, ProtocolVersion::V1_0];

    /// Reads an `A2A-Version` value, or the `protocolVersion` of an agent card. Empty means 0.3
    /// (spec §3.6). `Major.Minor` is the form the spec asks for; a patch part (`"0.3.0"`,
    /// `"1.0.1"`) and surrounding whitespace are accepted too, since cards write them.
    pub fn parse(value: &str) -> Result<Self, UnsupportedVersion> {
        let unsupported = || UnsupportedVersion {
            value: value.to_string(),
        };
        let trimmed = value.trim();
        if trimmed.is_empty() {
            return Ok(ProtocolVersion::V0_3);
        }
        let mut parts = trimmed.split('.');
        let number = |part: Option<&str>| -> Option<u32> {
            let part = part?;
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            part.parse().ok()
        };
        let major = number(parts.next()).ok_or_else(unsupported)?;
        let minor = number(parts.next()).ok_or_else(unsupported)?;
        match parts.next() {
            None => {}
            Some(patch) if number(Some(patch)).is_some() && parts.next().is_none() => {}
            Some(_) => return Err(unsupported()),
        }
        match (major, minor) {
            (0, 3) => Ok(ProtocolVersion::V0_3),
            (1, 0) => Ok(ProtocolVersion::V1_0),
            _ => Err(unsupported()),
        }
    }

    /// The `Major.Minor` string to send in the header.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V0_3 => "0.3",
            ProtocolVersion::V1_0 => "1.0",
        }
    }

    /// The newest version an agent card (as JSON, in either version's shape) declares that this
    /// crate speaks; `None` when it declares none of them. Interfaces bound to other transports
    /// (`GRPC`, `HTTP+JSON`) are skipped: this crate speaks JSON-RPC.
    pub fn from_agent_card(card: &Value) -> Option<Self> {
        let mut declared: Vec<&str> = Vec::new();
        // v1: supportedInterfaces[].protocolVersion, per JSON-RPC interface.
        if let Some(Value::Array(interfaces)) = card.get("supportedInterfaces") {
            for interface in interfaces {
                let binding = interface.get("protocolBinding").and_then(Value::as_str);
                if binding.is_some_and(|b| b != "JSONRPC") {
                    continue;
                }
                if let Some(v) = interface.get("protocolVersion").and_then(Value::as_str) {
                    declared.push(v);
                }
            }
        }
        // v0.3: one top-level protocolVersion (its transport is the card's preferred one).
        if let Some(v) = card.get("protocolVersion").and_then(Value::as_str) {
            let transport = card.get("preferredTransport").and_then(Value::as_str);
            if transport.is_none_or(|t| t == "JSONRPC") {
                declared.push(v);
            }
        }
        declared
            .into_iter()
            .filter_map(|v| ProtocolVersion::parse(v).ok())
            .max()
    }
}

/// The header in which a client lists the extensions it asks for (spec §3.2.6): a service
/// parameter, as `A2A-Version` ([`ProtocolVersion::HEADER`]) is. Also at
/// [`crate::service::EXTENSIONS_HEADER`].
pub const EXTENSIONS_HEADER: &str = "A2A-Extensions";

/// A generated module as either side sees it: the protocol version it speaks, whether its
/// methods have HTTP+JSON routes, and its error enum. What a client needs of a module
/// (`Client<P>` of the `client` feature is generic over it); a server needs more, the request
/// decoding of [`service::Protocol`](crate::service::Protocol), a subtrait of this one that
/// declares only the server's items.
///
/// These three items are declared here and nowhere else. A generated module's unit type
/// `Protocol` (an `a2a_types::v1::Protocol`) implements both traits, in two blocks:
/// `impl ProtocolModule for Protocol` (these three) and `impl service::Protocol for Protocol`
/// (the request and reply types and the decoders). A bound `P: service::Protocol` implies
/// `P: ProtocolModule`, so `P::VERSION` and `P::Error` resolve under it; a fully qualified path
/// names this trait: `<P as ProtocolModule>::Error`.
pub trait ProtocolModule: Send + Sync + 'static {
    /// The protocol version the module speaks.
    const VERSION: ProtocolVersion;
    /// Whether the module's methods have HTTP+JSON routes (v0.3's table has none).
    const HTTP_JSON: bool;
    /// The module's error enum.
    type Error: ErrorTable + Serialize + Clone + fmt::Debug + Send + Sync + 'static;
    /// The gRPC client codec, when the module was generated with its protobuf codec (and that
    /// codec's cargo feature is on): a client calls over gRPC with a module that has one.
    const GRPC_CLIENT: Option<GrpcClientCodec> = None;
}

/// A generated module's gRPC client codec: a method's params written as its request message, and
/// its result (each event's, for a streaming method) read back, by rpc name (`SendMessage`).
/// Type-erased (`Any`) function pointers, so that this layer needs neither the protobuf runtime
/// nor the module's types: the client hands in `&M::Params` and takes back `M::Result`.
#[derive(Clone, Copy)]
pub struct GrpcClientCodec {
    /// The request message of rpc `method` for these params; `None` when the module has no such
    /// rpc or the params are not its params type.
    pub encode: fn(&str, &dyn std::any::Any) -> Option<Vec<u8>>,
    /// A reply message of rpc `method` read under these limits: the result (boxed, of the
    /// method's result type) or why it does not decode; `None` for an rpc the module has not.
    pub decode: GrpcResultDecode,
}

/// [`GrpcClientCodec::decode`].
pub type GrpcResultDecode = fn(
    &str,
    &[u8],
    &crate::limits::Limits,
) -> Option<Result<Box<dyn std::any::Any + Send>, String>>;

impl fmt::Debug for GrpcClientCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GrpcClientCodec")
    }
}

/// The HTTP bindings this crate speaks, as agent cards name them (a v1 interface's
/// `protocolBinding`, a v0.3 card's `preferredTransport` and its interfaces' `transport`).
///
/// ```
/// use a2a_runtime::Binding;
///
/// assert_eq!(Binding::of("HTTP+JSON"), Some(Binding::HttpJson));
/// assert_eq!(Binding::of("jsonrpc"), Some(Binding::JsonRpc)); // ASCII case does not matter
/// assert_eq!(Binding::of("GRPC"), Some(Binding::Grpc));
/// assert_eq!(Binding::of("SOAP"), None);
/// assert_eq!(Binding::JsonRpc.name(), "JSONRPC");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Binding {
    /// JSON-RPC 2.0 over HTTP (spec §9): every call a POST to the interface's URL.
    JsonRpc,
    /// HTTP+JSON (spec §11): each method on its own route below the interface's URL.
    HttpJson,
    /// gRPC (spec §10): the `lf.a2a.v1.A2AService` rpcs over HTTP/2, protobuf messages. The
    /// server serves it with the `grpc` feature (see `server`); the JSON client does not speak it.
    Grpc,
}

impl Binding {
    /// The binding a card names, ignoring ASCII case; `None` for a name no spec has.
    pub fn of(name: &str) -> Option<Binding> {
        [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc]
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(name))
    }

    /// The name agent cards use for it (`JSONRPC`, `HTTP+JSON`, `GRPC`).
    pub const fn name(self) -> &'static str {
        match self {
            Binding::JsonRpc => "JSONRPC",
            Binding::HttpJson => "HTTP+JSON",
            Binding::Grpc => "GRPC",
        }
    }
}

impl fmt::Display for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One interface an agent card offers: where to call the agent, over which binding, in which
/// protocol version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interface {
    /// The URL to call: the JSON-RPC endpoint, or the base URL of the REST routes.
    pub url: String,
    /// The binding.
    pub binding: Binding,
    /// The protocol version to speak there (and to send as `A2A-Version`).
    pub version: ProtocolVersion,
    /// The tenant the interface names (v1 only), for the calls' `tenant`; `None` when it names
    /// none or an empty one.
    pub tenant: Option<String>,
}

/// Picks the interface to call an agent through, from its card (the typed card of either
/// generated module, or its JSON): the first binding of `preferred` that the card offers in a
/// version this crate speaks, and among that binding's interfaces the newest version; the
/// card's order breaks ties (its first interface is the agent's preferred one). `None` when the
/// card offers none of them.
///
/// A v1 card lists `supportedInterfaces` (`url`, `protocolBinding`, `protocolVersion`,
/// `tenant`); a v0.3 card has its `url` with its `preferredTransport` (JSON-RPC when absent) and
/// `additionalInterfaces` (`url`, `transport`), all in its top-level `protocolVersion`. A card
/// may carry both shapes (a2a-sdk writes the v0.3 members beside the v1 list); they are read
/// together. Binding names compare ignoring ASCII case. Skipped: an interface without a URL, one
/// over a binding this crate does not speak (gRPC), and one whose version this crate does not
/// speak ([`ProtocolVersion::parse`]: an empty or missing version reads as 0.3).
///
/// ```
/// use a2a_runtime::version::{pick_interface, ProtocolVersion};
/// use a2a_runtime::Binding;
///
/// let card = serde_json::json!({"supportedInterfaces": [
///     {"url": "https://a.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
///     {"url": "https://a.example/v03", "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"},
///     {"url": "https://a.example/api", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
/// ]});
/// let rest = pick_interface(&card, &[Binding::HttpJson, Binding::JsonRpc]).unwrap();
/// assert_eq!((rest.url.as_str(), rest.version), ("https://a.example/api", ProtocolVersion::V1_0));
/// assert_eq!(pick_interface(&serde_json::json!({}), &[Binding::JsonRpc]), None);
/// ```
pub fn pick_interface<C: Serialize + ?Sized>(card: &C, preferred: &[Binding]) -> Option<Interface> {
    pick_among(&interfaces(card), preferred)
}

/// [`pick_interface`] among the card's interfaces in `version` only: what a client built on one
/// generated module (one version) calls. `None` when the card offers none of the `preferred`
/// bindings in that version (it may offer them in another: [`pick_interface`] says which).
///
/// ```
/// use a2a_runtime::version::{pick_interface_in, ProtocolVersion};
/// use a2a_runtime::Binding;
///
/// // a2a-sdk's cards list a 0.3 interface beside the 1.0 one, at the same URL.
/// let card = serde_json::json!({"supportedInterfaces": [
///     {"url": "https://a.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
///     {"url": "https://a.example/", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}
/// ]});
/// let v03 = pick_interface_in(&card, &[Binding::JsonRpc], ProtocolVersion::V0_3).unwrap();
/// assert_eq!(v03.version, ProtocolVersion::V0_3);
/// assert_eq!(pick_interface_in(&card, &[Binding::HttpJson], ProtocolVersion::V1_0), None);
/// ```
pub fn pick_interface_in<C: Serialize + ?Sized>(
    card: &C,
    preferred: &[Binding],
    version: ProtocolVersion,
) -> Option<Interface> {
    let offered: Vec<Interface> = interfaces(card)
        .into_iter()
        .filter(|i| i.version == version)
        .collect();
    pick_among(&offered, preferred)
}

/// Every interface the card (typed, or its JSON; in either version's shape) offers over a
/// binding and in a version this crate speaks, in the card's order: its `supportedInterfaces`,
/// then the v0.3 members (`url` with its `preferredTransport`, then `additionalInterfaces`).
/// Read as [`pick_interface`] reads them.
pub fn interfaces<C: Serialize + ?Sized>(card: &C) -> Vec<Interface> {
    // A card is read once per client or server: going through its JSON costs nothing that
    // matters, and reads both modules' typed cards and a `Value` alike.
    match serde_json::to_value(card) {
        Ok(card) => interfaces_of(&card),
        Err(_) => Vec::new(),
    }
}

fn interfaces_of(card: &Value) -> Vec<Interface> {
    offered_as_written(card)
        .into_iter()
        .filter_map(|(url, binding, version, tenant)| {
            Some(Interface {
                url,
                binding: Binding::of(&binding)?,
                version,
                tenant,
            })
        })
        .collect()
}

/// Every interface the card offers in a version this crate speaks, with its binding as the card
/// writes it (gRPC and unknown ones included): url, binding, version, tenant. For messages that
/// say what a card offers.
pub(crate) fn offered_as_written(
    card: &Value,
) -> Vec<(String, String, ProtocolVersion, Option<String>)> {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let mut offered = Vec::new();
    let mut offer = |url: Option<String>, binding: Option<String>, version: &str, tenant| {
        if let (Some(url), Some(binding), Ok(version)) =
            (url, binding, ProtocolVersion::parse(version))
        {
            offered.push((url, binding, version, tenant));
        }
    };
    if let Some(Value::Array(interfaces)) = card.get("supportedInterfaces") {
        for i in interfaces {
            let version = text(i, "protocolVersion").unwrap_or_default();
            let tenant = text(i, "tenant").filter(|t| !t.is_empty());
            offer(text(i, "url"), text(i, "protocolBinding"), &version, tenant);
        }
    }
    if let Some(version) = text(card, "protocolVersion") {
        let preferred = text(card, "preferredTransport").or(Some(Binding::JsonRpc.name().into()));
        offer(text(card, "url"), preferred, &version, None);
        if let Some(Value::Array(interfaces)) = card.get("additionalInterfaces") {
            for i in interfaces {
                offer(text(i, "url"), text(i, "transport"), &version, None);
            }
        }
    }
    offered
}

/// The first binding of `preferred` among `offered`, the newest version of it, the first
/// among equals.
fn pick_among(offered: &[Interface], preferred: &[Binding]) -> Option<Interface> {
    preferred.iter().find_map(|want| {
        offered
            .iter()
            .filter(|i| i.binding == *want)
            .fold(None, |best: Option<&Interface>, i| match best {
                Some(b) if b.version >= i.version => Some(b),
                _ => Some(i),
            })
            .cloned()
    })
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn header_values() {
        for (value, want) in [
            ("", Some(ProtocolVersion::V0_3)),
            ("  ", Some(ProtocolVersion::V0_3)),
            ("0.3", Some(ProtocolVersion::V0_3)),
            ("0.3.0", Some(ProtocolVersion::V0_3)),
            ("1.0", Some(ProtocolVersion::V1_0)),
            (" 1.0.1 ", Some(ProtocolVersion::V1_0)),
            ("1", None),
            ("1.1", None),
            ("2.0", None),
            ("v1.0", None),
            ("1.0.x", None),
            ("1.0.1.2", None),
            ("1..0", None),
            ("+1.0", None),
            ("99999999999.0", None),
        ] {
            assert_eq!(ProtocolVersion::parse(value).ok(), want, "{value:?}");
        }
        let err = ProtocolVersion::parse("2.0").unwrap_err();
        assert_eq!(err.value, "2.0");
        assert!(err.to_string().contains("\"2.0\""));
    }

    #[test]
    fn round_trips_through_the_header_string() {
        for v in ProtocolVersion::ALL {
            assert_eq!(ProtocolVersion::parse(v.as_str()), Ok(v));
        }
    }

    #[test]
    fn cards_of_both_shapes() {
        let v03 = json!({"name": "a", "protocolVersion": "0.3.0", "preferredTransport": "JSONRPC"});
        assert_eq!(
            ProtocolVersion::from_agent_card(&v03),
            Some(ProtocolVersion::V0_3)
        );
        let grpc_only = json!({"supportedInterfaces": [
            {"protocolBinding": "GRPC", "protocolVersion": "1.0"}
        ]});
        assert_eq!(ProtocolVersion::from_agent_card(&grpc_only), None);
        let future = json!({"supportedInterfaces": [
            {"protocolBinding": "JSONRPC", "protocolVersion": "2.0"},
            {"protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ]});
        assert_eq!(
            ProtocolVersion::from_agent_card(&future),
            Some(ProtocolVersion::V1_0)
        );
        assert_eq!(ProtocolVersion::from_agent_card(&json!({})), None);
        assert_eq!(ProtocolVersion::from_agent_card(&json!([1, 2])), None);
    }

    fn picked(card: &Value, preferred: &[Binding]) -> Option<(String, Binding, ProtocolVersion)> {
        pick_interface(card, preferred).map(|i| (i.url, i.binding, i.version))
    }

    #[test]
    fn pick_interface_follows_the_callers_preference_then_the_newest_version() {
        let card = json!({"supportedInterfaces": [
            {"url": "http://a/rpc03", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
            {"url": "http://a/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "http://a/rpc-too", "protocolBinding": "JSONRPC", "protocolVersion": "1.0.1"},
            {"url": "http://a/grpc", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
            {"url": "http://a/next", "protocolBinding": "HTTP+JSON", "protocolVersion": "2.0"},
            {"url": "http://a/api", "protocolBinding": "http+json", "protocolVersion": "1.0",
             "tenant": "acme"},
            {"protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
            "not an interface"
        ]});
        let v1 = ProtocolVersion::V1_0;
        // The newest version of the binding; the card's order among equals.
        assert_eq!(
            picked(&card, &[Binding::JsonRpc]),
            Some(("http://a/rpc".into(), Binding::JsonRpc, v1))
        );
        // The caller's order of bindings, whatever the card's; case does not matter, a version
        // this crate does not speak and an interface without a URL are skipped.
        let rest = pick_interface(&card, &[Binding::HttpJson, Binding::JsonRpc]).unwrap();
        assert_eq!((rest.url.as_str(), rest.version), ("http://a/api", v1));
        assert_eq!(rest.tenant.as_deref(), Some("acme"));
        assert_eq!(picked(&card, &[]), None);
        assert_eq!(picked(&json!({}), &[Binding::JsonRpc]), None);
        assert_eq!(picked(&json!("card"), &[Binding::JsonRpc]), None);
    }

    #[test]
    fn pick_interface_in_keeps_to_one_version() {
        // a2a-sdk's cards: JSON-RPC in 1.0 and 0.3 at one URL, HTTP+JSON in 1.0.
        let card = json!({
            "supportedInterfaces": [
                {"url": "http://a/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                {"url": "http://a/", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
                {"url": "http://a/", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
            ],
            "url": "http://a/v03", "protocolVersion": "0.3", "preferredTransport": "JSONRPC"
        });
        let (v03, v1) = (ProtocolVersion::V0_3, ProtocolVersion::V1_0);
        let pick = |preferred: &[Binding], version| {
            pick_interface_in(&card, preferred, version).map(|i| (i.url, i.binding, i.version))
        };
        // The first 0.3 interface in the card's order, not the newer one pick_interface takes.
        assert_eq!(
            pick(&[Binding::JsonRpc], v03),
            Some(("http://a/".into(), Binding::JsonRpc, v03))
        );
        assert_eq!(
            pick(&[Binding::HttpJson, Binding::JsonRpc], v1),
            Some(("http://a/".into(), Binding::HttpJson, v1))
        );
        assert_eq!(pick(&[Binding::HttpJson], v03), None);
        // Every interface, in the card's order, the v0.3 members last.
        let all: Vec<(String, ProtocolVersion)> = interfaces(&card)
            .into_iter()
            .map(|i| (i.url, i.version))
            .collect();
        assert_eq!(
            all,
            [
                ("http://a/".to_owned(), v1),
                ("http://a/".to_owned(), v03),
                ("http://a/".to_owned(), v1),
                ("http://a/v03".to_owned(), v03)
            ]
        );
        assert!(interfaces(&json!(null)).is_empty());
    }

    #[test]
    fn pick_interface_reads_v0_3_cards_and_both_shapes_at_once() {
        let v03 = json!({"url": "http://a/rpc", "protocolVersion": "0.3.0",
            "additionalInterfaces": [{"url": "http://a/rest", "transport": "HTTP+JSON"}]});
        assert_eq!(
            picked(&v03, &[Binding::JsonRpc]),
            Some((
                "http://a/rpc".into(),
                Binding::JsonRpc,
                ProtocolVersion::V0_3
            ))
        );
        assert_eq!(
            picked(&v03, &[Binding::HttpJson]),
            Some((
                "http://a/rest".into(),
                Binding::HttpJson,
                ProtocolVersion::V0_3
            ))
        );
        let grpc =
            json!({"url": "http://a/g", "protocolVersion": "0.3", "preferredTransport": "GRPC"});
        assert_eq!(picked(&grpc, &[Binding::JsonRpc]), None);
        // a2a-sdk's cards: the v1 list and the v0.3 members of its 0.3 interface.
        let both = json!({
            "supportedInterfaces": [
                {"url": "http://a/", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
                {"url": "http://a/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
            ],
            "url": "http://a/", "protocolVersion": "0.3", "preferredTransport": "JSONRPC"
        });
        assert_eq!(
            picked(&both, &[Binding::JsonRpc]).map(|p| p.2),
            Some(ProtocolVersion::V1_0)
        );
    }
}
