//! The client side's HTTP: a blocking JSON-RPC caller over `ureq`, shared by the v1 and the v0.3
//! client, and the REST client's sender ([`Client::send_rest`]). It moves bytes only; encoding
//! the call and decoding the reply is the job of the a2a-types module the client is built on.

use a2a_types::rt::rest::{HttpReply, HttpRequest, CONTENT_TYPE};
use a2a_types::rt::server::RequestId;
use a2a_types::version::ProtocolVersion;
use std::fmt::Debug;
use std::io::Read;
use std::time::Duration;

/// Bytes read from an SSE response at a time: small, so the live stream reaches the decoder split
/// inside events, not only between them.
pub const STREAM_READ: usize = 256;

/// A call that can be written as a JSON-RPC request body: the `Request` enum of `a2a_types::v1`
/// or of `a2a_types::v0_3`.
pub trait Call {
    /// The request body with this id.
    fn body(&self, id: &RequestId) -> Vec<u8>;
    /// The method's wire name, for messages.
    fn name(&self) -> &'static str;
}

impl Call for a2a_types::v1::Request {
    fn body(&self, id: &RequestId) -> Vec<u8> {
        self.encode(id)
    }
    fn name(&self) -> &'static str {
        self.method().as_str()
    }
}

impl Call for a2a_types::v0_3::Request {
    fn body(&self, id: &RequestId) -> Vec<u8> {
        self.encode(id)
    }
    fn name(&self) -> &'static str {
        self.method().as_str()
    }
}

/// A blocking JSON-RPC (or REST) client: one connection pool, the endpoint (the REST base URL),
/// the `A2A-Version` it sends (none for a v0.3 client, as v0.3 clients do), the next id.
pub struct Client {
    http: ureq::Agent,
    /// The JSON-RPC endpoint, or the base URL of the REST routes, taken from the agent card.
    pub endpoint: String,
    version: Option<ProtocolVersion>,
    next_id: i64,
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

/// A response whose body has not been read yet (an SSE stream, say).
pub type Streaming = ureq::http::Response<ureq::Body>;

impl Client {
    /// A client that sends `A2A-Version: <version>` on every request, or no such header.
    pub fn new(version: Option<ProtocolVersion>) -> Self {
        let config = ureq::Agent::config_builder()
            // JSON-RPC errors travel with any status; the body decides, not the status.
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(20)))
            .build();
        Client {
            http: ureq::Agent::new_with_config(config),
            endpoint: String::new(),
            version,
            next_id: 1,
        }
    }

    /// GETs `url` (the agent card), read whole.
    pub fn get(&self, url: &str) -> Result<Reply, String> {
        let mut request = self.http.get(url);
        if let Some(version) = self.version {
            request = request.header(ProtocolVersion::HEADER, version.as_str());
        }
        let response = request.call().map_err(|e| format!("GET {url}: {e}"))?;
        read_whole(response)
    }

    /// Sends one call; the reply is read whole.
    pub fn call(&mut self, request: &impl Call) -> Result<Reply, String> {
        let response = self.post(request, "application/json")?;
        read_whole(response)
    }

    /// Sends one call and hands back the response unread, for a streaming method.
    pub fn post(&mut self, request: &impl Call, accept: &str) -> Result<Streaming, String> {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        let body = request.body(&id);
        let mut post = self.http.post(&self.endpoint).header("accept", accept);
        if let Some(version) = self.version {
            post = post.header(ProtocolVersion::HEADER, version.as_str());
        }
        post.content_type("application/json")
            .send(&body[..])
            .map_err(|e| format!("POST {} ({}): {e}", self.endpoint, request.name()))
    }
}

impl Client {
    /// Sends one REST request (verb, path with query, JSON body: what
    /// `a2a_types::v1::encode_rest_request` gives) to the base URL in `endpoint`; the response is
    /// handed back unread, for a stream, or to read whole with [`read_whole`].
    pub fn send_rest(&self, request: &HttpRequest, accept: &str) -> Result<Streaming, String> {
        let url = format!("{}{}", self.endpoint.trim_end_matches('/'), request.path);
        let mut builder = ureq::http::Request::builder()
            .method(request.verb)
            .uri(&url)
            .header("accept", accept);
        if let Some(version) = self.version {
            builder = builder.header(ProtocolVersion::HEADER, version.as_str());
        }
        let what = || format!("{} {url}", request.verb);
        let sent = match &request.body {
            Some(body) => {
                let built = builder
                    .header("content-type", CONTENT_TYPE)
                    .body(body.clone())
                    .map_err(|e| format!("{}: {e}", what()))?;
                self.http.run(built)
            }
            None => {
                let built = builder.body(()).map_err(|e| format!("{}: {e}", what()))?;
                self.http.run(built)
            }
        };
        sent.map_err(|e| format!("{}: {e}", what()))
    }

    /// [`Client::send_rest`], the reply read whole.
    pub fn rest(&self, request: &HttpRequest) -> Result<Reply, String> {
        read_whole(self.send_rest(request, "application/json")?)
    }
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

/// The response's `Content-Type`, empty when there is none.
pub fn content_type(response: &Streaming) -> String {
    response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

/// Reads a response whole.
pub fn read_whole(mut response: Streaming) -> Result<Reply, String> {
    let status = response.status().as_u16();
    let content_type = content_type(&response);
    let body = response
        .body_mut()
        .read_to_vec()
        .map_err(|e| format!("reading the body: {e}"))?;
    Ok(Reply {
        status,
        content_type,
        body,
    })
}

/// Reads a response as it arrives, [`STREAM_READ`] bytes at most at a time, handing each chunk to
/// `feed`; returns the number of reads.
pub fn read_chunks(
    mut response: Streaming,
    mut feed: impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<usize, String> {
    let mut reader = response.body_mut().as_reader();
    let mut buf = [0u8; STREAM_READ];
    let mut reads = 0;
    loop {
        let n = reader.read(&mut buf).map_err(|e| format!("reading: {e}"))?;
        if n == 0 {
            return Ok(reads);
        }
        reads += 1;
        feed(&buf[..n])?;
    }
}

/// `what` for a failure message, with the reply's status and the start of its body.
pub fn context(what: impl Debug, reply: &Reply) -> String {
    let body = String::from_utf8_lossy(&reply.body);
    let cut: String = body.chars().take(600).collect();
    format!("{what:?} (HTTP {}, body: {cut})", reply.status)
}
