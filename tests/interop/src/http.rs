//! What the clients share besides `a2a_runtime::client::Client`, through which they
//! make every call: the runtime they block on, the fallback when the card step fails, and one raw
//! HTTP request for the steps that must go around `Client` on purpose (a call without
//! `A2A-Version`, a route no method has). Those raw replies are still read by the a2a-types
//! decoders.

use a2a_types::rt::client::HttpReply;
use a2a_types::rt::client::{reqwest, Client};
use a2a_types::rt::service::Protocol;
use a2a_types::rt::Binding;
use a2a_types::version::ProtocolVersion;
use std::fmt::Debug;
use std::time::Duration;

/// The timeout of every call and raw request (the whole run is bounded by run.sh as well).
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// The runtime the (blocking) steps run their calls on.
pub fn runtime() -> tokio::runtime::Runtime {
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("no tokio runtime: {e}");
            std::process::exit(2);
        }
    }
}

/// A client of `P` on a card naming only `url` over `binding`, in `P`'s version: what the steps
/// after a failed card step call, so that they still run and say what they see.
pub fn fallback_client<P: Protocol>(url: &str, binding: Binding) -> Client<P> {
    let binding = binding.name();
    let card = serde_json::json!({
        "name": "fallback",
        "supportedInterfaces": [
            {"url": url, "protocolBinding": binding, "protocolVersion": P::VERSION.as_str()}
        ],
        "url": url, "protocolVersion": P::VERSION.as_str(), "preferredTransport": binding
    });
    match Client::<P>::builder()
        .request_timeout(TIMEOUT)
        .from_card(&card)
    {
        Ok(client) => client,
        Err(e) => {
            eprintln!("no client for {url}: {e}");
            std::process::exit(2);
        }
    }
}

/// A reply as it came off the wire.
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Type` header, empty when there is none.
    pub content_type: String,
    /// The whole body.
    pub body: Vec<u8>,
}

impl Reply {
    /// The reply as the REST decoders take it.
    pub fn http(&self) -> HttpReply<'_> {
        HttpReply {
            status: self.status,
            content_type: Some(self.content_type.as_str()).filter(|t| !t.is_empty()),
            body: &self.body,
        }
    }
}

/// Sends one bodiless request, `A2A-Version: <version>` only when `version` is given, and reads
/// the reply whole. For the steps that need a request `Client` never sends.
pub async fn raw(verb: &str, url: &str, version: Option<ProtocolVersion>) -> Result<Reply, String> {
    let what = || format!("{verb} {url}");
    let method =
        reqwest::Method::from_bytes(verb.as_bytes()).map_err(|e| format!("{}: {e}", what()))?;
    let mut request = reqwest::Client::new()
        .request(method, url)
        .timeout(TIMEOUT)
        .header("accept", "application/json");
    if let Some(version) = version {
        request = request.header(ProtocolVersion::HEADER, version.as_str());
    }
    let response = request
        .send()
        .await
        .map_err(|e| format!("{}: {e}", what()))?;
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = response
        .bytes()
        .await
        .map_err(|e| format!("{}: reading the body: {e}", what()))?
        .to_vec();
    Ok(Reply {
        status,
        content_type,
        body,
    })
}

/// `what` for a failure message, with the reply's status and the start of its body.
pub fn context(what: impl Debug, reply: &Reply) -> String {
    let body = String::from_utf8_lossy(&reply.body);
    let cut: String = body.chars().take(600).collect();
    format!("{what:?} (HTTP {}, body: {cut})", reply.status)
}
