//! The HTTP messages of the sans-IO client: [`HttpRequest`], what
//! [`encode_call`](crate::client::encode_call) gives to send, and [`HttpReply`], what
//! [`Decoder::decode_http`](crate::client::Decoder::decode_http) reads. Plain data, a leaf of the
//! client's side, so that both bindings' client halves can take and give them without reaching
//! up into [`crate::client`].

/// An HTTP reply as a client received it: what
/// [`Decoder::decode_http`](crate::client::Decoder::decode_http) reads.
#[derive(Clone, Copy, Debug)]
pub struct HttpReply<'a> {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Type` header, when there was one.
    pub content_type: Option<&'a str>,
    /// The body.
    pub body: &'a [u8],
}

/// An HTTP request calling a method, ready to send: relative to the interface's URL, with the
/// headers the binding asks for. What
/// [`encode_call`](crate::client::encode_call) gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRequest {
    /// The HTTP method.
    pub verb: &'static str,
    /// The path below the interface's URL, with the query string when there is one
    /// (`/tasks/t-1?historyLength=2`); empty for JSON-RPC, which posts to the URL itself.
    pub path: String,
    /// The headers to send: `Content-Type` when there is a body, `Accept` (`text/event-stream`
    /// for a streaming method, else `application/json`) and `A2A-Version`.
    pub headers: Vec<(&'static str, &'static str)>,
    /// The JSON body, for JSON-RPC and for a REST route whose request is the body.
    pub body: Option<Vec<u8>>,
}

impl HttpRequest {
    /// The value of header `name` (compared ignoring ASCII case), if the request has it.
    pub fn header(&self, name: &str) -> Option<&'static str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
    }
}
