//! The request handler over gRPC (issue 31), through the real server on one port with the JSON
//! bindings: a tonic client (its channel, a typed `Codec` over the generated types' own protobuf
//! codec) calls `lf.a2a.v1.A2AService`, unary and streaming; errors carry their status code and
//! a `google.rpc.Status` with the ErrorInfo; bad messages get `INVALID_ARGUMENT` naming the field
//! and the server goes on serving; deadlines are kept; HTTP/1.1 at the gRPC path is refused; a
//! stream the client cancels frees its place and leaves the task running. Our own client over
//! gRPC, in plain text and over TLS.

mod common;

use a2a_agent::RequestHandler;
use a2a_types::rt::auth::{Caller, StaticTokens};
use a2a_types::v1::{
    AgentCapabilities, AgentCard, AgentInterface, GetTaskRequest, SendMessageRequest,
    SendMessageResponse, StreamResponse, Task, TaskState,
};
use bytes::{Buf as _, BufMut as _};
use common::echo::Echo;
use serde_json::json;
use std::marker::PhantomData;
use std::time::Duration;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::{Code, Status};

/// The agent on 127.0.0.1, JSON-RPC and gRPC on one port: its base URL and gRPC target.
async fn serve() -> (String, String) {
    serve_with(None).await
}

/// [`serve`], every call authenticated with `authenticator` when one is given.
async fn serve_with(authenticator: Option<StaticTokens>) -> (String, String) {
    serve_handler(RequestHandler::builder(Echo).build(), authenticator).await
}

/// [`serve_with`] for a handler built by the test.
async fn serve_handler(
    handler: RequestHandler<Echo>,
    authenticator: Option<StaticTokens>,
) -> (String, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let target = listener.local_addr().unwrap().to_string();
    let base = format!("http://{target}/");
    let interface = |url: &str, binding: &str| AgentInterface {
        url: url.into(),
        protocol_binding: binding.into(),
        protocol_version: "1.0".into(),
        ..Default::default()
    };
    let card = AgentCard {
        name: "grpc".into(),
        supported_interfaces: vec![interface(&base, "JSONRPC"), interface(&target, "GRPC")],
        capabilities: AgentCapabilities {
            streaming: Some(true),
            ..Default::default()
        },
        ..Default::default()
    };
    let router = handler.router(&card).unwrap();
    let router = match authenticator {
        Some(tokens) => router.authenticate(tokens),
        None => router,
    };
    let router = router.into_router().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    (base, target)
}

/// tonic's codec over the generated types' protobuf codec: `E` out, `D` in.
struct Proto<E, D>(PhantomData<fn() -> (E, D)>);

impl<E, D> Default for Proto<E, D> {
    fn default() -> Self {
        Proto(PhantomData)
    }
}

impl<E, D> Codec for Proto<E, D>
where
    E: a2a_types::rt::protobuf::Message + Send + 'static,
    D: a2a_types::rt::protobuf::Message + Send + 'static,
{
    type Encode = E;
    type Decode = D;
    type Encoder = Proto<E, D>;
    type Decoder = Proto<E, D>;
    fn encoder(&mut self) -> Self::Encoder {
        Proto::default()
    }
    fn decoder(&mut self) -> Self::Decoder {
        Proto::default()
    }
}

impl<E: a2a_types::rt::protobuf::Message, D> Encoder for Proto<E, D> {
    type Item = E;
    type Error = Status;
    fn encode(&mut self, item: E, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put_slice(&item.encode_to_vec());
        Ok(())
    }
}

impl<E, D: a2a_types::rt::protobuf::Message> Decoder for Proto<E, D> {
    type Item = D;
    type Error = Status;
    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<D>, Status> {
        let bytes = src.copy_to_bytes(src.remaining());
        D::decode(&bytes)
            .map(Some)
            .map_err(|e| Status::internal(e.to_string()))
    }
}

type Grpc = tonic::client::Grpc<tonic::transport::Channel>;

async fn connect(target: &str) -> Grpc {
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{target}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    tonic::client::Grpc::new(channel)
}

/// A request with `A2A-Version: 1.0` (or `version`) and a 10 s deadline.
fn request<T>(message: T, version: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request
        .metadata_mut()
        .insert("a2a-version", version.parse().unwrap());
    request.set_timeout(Duration::from_secs(10));
    request
}

async fn unary<E, D>(
    grpc: &mut Grpc,
    rpc: &'static str,
    request: tonic::Request<E>,
) -> Result<D, Status>
where
    E: a2a_types::rt::protobuf::Message + Send + Sync + 'static,
    D: a2a_types::rt::protobuf::Message + Send + Sync + 'static,
{
    grpc.ready().await.unwrap();
    let path = format!("/lf.a2a.v1.A2AService/{rpc}").parse().unwrap();
    grpc.unary(request, path, Proto::<E, D>::default())
        .await
        .map(tonic::Response::into_inner)
}

/// One gRPC call as plain HTTP/2 (prior knowledge): `message` framed, `A2A-Version: 1.0` and
/// `headers`; the response as it comes (a refused call's status is in its headers).
async fn post_grpc(
    base: &str,
    rpc: &str,
    message: &[u8],
    headers: &[(&'static str, &'static str)],
) -> reqwest::Response {
    let mut framed = vec![0u8];
    framed.extend_from_slice(&u32::try_from(message.len()).unwrap().to_be_bytes());
    framed.extend_from_slice(message);
    let h2 = reqwest::Client::builder()
        .http2_prior_knowledge()
        .build()
        .unwrap();
    let mut request = h2
        .post(format!("{base}lf.a2a.v1.A2AService/{rpc}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .header("a2a-version", "1.0")
        .timeout(Duration::from_secs(10))
        .body(framed);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

/// Standard base64, padded or not (`grpc-status-details-bin`).
fn base64_decode(text: &str) -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(text.trim_end_matches('='))
        .unwrap()
}

fn send(text: &str) -> SendMessageRequest {
    serde_json::from_value(json!({
        "message": {"messageId": format!("m-{text}"), "role": "ROLE_USER", "parts": [{"text": text}]}
    }))
    .unwrap()
}

fn text_of(task: &Task) -> String {
    serde_json::to_value(&task.artifacts).unwrap()[0]["parts"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn the_handler_serves_grpc_beside_json_rpc_on_one_port() {
    let (base, target) = serve().await;
    let mut grpc = connect(&target).await;

    // SendMessage, then GetTask for the task it made: unary rpcs, typed replies.
    let reply: SendMessageResponse = unary(&mut grpc, "SendMessage", request(send("hi"), "1.0"))
        .await
        .unwrap();
    let SendMessageResponse::Task(task) = reply else {
        panic!("{reply:?}")
    };
    assert_eq!(task.status.state, TaskState::Completed);
    assert_eq!(text_of(&task), "hi");
    let get = GetTaskRequest {
        id: task.id.clone(),
        ..Default::default()
    };
    let got: Task = unary(&mut grpc, "GetTask", request(get, "1.0"))
        .await
        .unwrap();
    assert_eq!(got.id, task.id);

    // The same task over JSON-RPC on the same port.
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": task.id}});
    let reply = reqwest::Client::new()
        .post(&base)
        .header("A2A-Version", "1.0")
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&reply).unwrap();
    assert_eq!(json["result"]["id"], task.id.as_str());

    // SendStreamingMessage: a server-streaming rpc, the task's events to its end.
    grpc.ready().await.unwrap();
    let path = "/lf.a2a.v1.A2AService/SendStreamingMessage"
        .parse()
        .unwrap();
    let mut stream = grpc
        .server_streaming(
            request(send("streamed"), "1.0"),
            path,
            Proto::<SendMessageRequest, StreamResponse>::default(),
        )
        .await
        .unwrap()
        .into_inner();
    let mut events = Vec::new();
    while let Some(event) = stream.message().await.unwrap() {
        events.push(event);
    }
    assert!(events.len() >= 2, "{events:?}");
    match events.last().unwrap() {
        StreamResponse::StatusUpdate(update) => {
            assert_eq!(update.status.state, TaskState::Completed)
        }
        StreamResponse::Task(task) => assert_eq!(task.status.state, TaskState::Completed),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn grpc_errors_carry_their_status_and_details() {
    let (base, target) = serve().await;
    let mut grpc = connect(&target).await;

    // An A2A error: its row's status code, and the ErrorInfo in grpc-status-details-bin.
    let get = GetTaskRequest {
        id: "no-such-task".into(),
        ..Default::default()
    };
    let missing = unary::<_, Task>(&mut grpc, "GetTask", request(get, "1.0"))
        .await
        .unwrap_err();
    assert_eq!(missing.code(), Code::NotFound, "{missing:?}");
    let details = String::from_utf8_lossy(missing.details()).into_owned();
    assert!(
        details.contains("type.googleapis.com/google.rpc.ErrorInfo"),
        "{details}"
    );
    assert!(details.contains("TASK_NOT_FOUND"), "{details}");
    assert!(details.contains("a2a-protocol.org"), "{details}");

    // A body that is not the rpc's message: INVALID_ARGUMENT naming where (sent as raw HTTP/2:
    // no codec writes such bytes), and a call after it is served.
    let garbage = post_grpc(&base, "SendMessage", &[0x0a, 0xff, 0x01], &[]).await;
    assert_eq!(
        garbage.headers()["grpc-status"],
        "3",
        "{:?}",
        garbage.headers()
    );
    let message = garbage.headers()["grpc-message"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(message.contains("SendMessageRequest"), "{message}");
    let details = garbage.headers()["grpc-status-details-bin"]
        .to_str()
        .unwrap();
    let details = base64_decode(details);
    assert!(String::from_utf8_lossy(&details).contains("google.rpc.BadRequest"));

    // A message without what the method cannot run without: the field named.
    let empty = unary::<_, SendMessageResponse>(
        &mut grpc,
        "SendMessage",
        request(SendMessageRequest::default(), "1.0"),
    )
    .await
    .unwrap_err();
    assert_eq!(empty.code(), Code::InvalidArgument, "{empty:?}");
    assert!(empty.message().contains("message"), "{empty:?}");

    // An rpc the service does not have; a version it does not serve (v1.0.1 §5.4:
    // FAILED_PRECONDITION).
    let unknown = unary::<_, Task>(&mut grpc, "NoSuchRpc", request(send("x"), "1.0"))
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::Unimplemented, "{unknown:?}");
    let version =
        unary::<_, SendMessageResponse>(&mut grpc, "SendMessage", request(send("x"), "99.0"))
            .await
            .unwrap_err();
    assert_eq!(version.code(), Code::FailedPrecondition, "{version:?}");
    assert!(String::from_utf8_lossy(version.details()).contains("VERSION_NOT_SUPPORTED"));

    // The deadline: a task that never ends, a call whose `grpc-timeout` is 300 ms. Sent as raw
    // HTTP/2 (tonic's channel would end the call by its own timer first): the server answers
    // DEADLINE_EXCEEDED (4) as a trailers-only response.
    let message = a2a_types::rt::protobuf::Message::encode_to_vec(&send("hang"));
    let started = std::time::Instant::now();
    let late = post_grpc(&base, "SendMessage", &message, &[("grpc-timeout", "300m")]).await;
    assert_eq!(late.headers()["grpc-status"], "4", "{:?}", late.headers());
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert!(started.elapsed() < Duration::from_secs(5));

    // Still serving.
    let reply: SendMessageResponse = unary(&mut grpc, "SendMessage", request(send("after"), "1.0"))
        .await
        .unwrap();
    assert!(matches!(reply, SendMessageResponse::Task(_)));

    // HTTP/1.1 at the gRPC path, and gRPC-Web: refused with a line, not a hang.
    let http1 = reqwest::Client::new()
        .post(format!("{base}lf.a2a.v1.A2AService/SendMessage"))
        .header("content-type", "application/grpc")
        .timeout(Duration::from_secs(10))
        .body(vec![0u8; 5])
        .send()
        .await
        .unwrap();
    assert_eq!(http1.status(), 505);
    let web = reqwest::Client::new()
        .post(format!("{base}lf.a2a.v1.A2AService/SendMessage"))
        .header("content-type", "application/grpc-web+proto")
        .timeout(Duration::from_secs(10))
        .body(vec![0u8; 5])
        .send()
        .await
        .unwrap();
    assert_eq!(web.status(), 415);
}

/// A request in 1.0 with `token` as its bearer credentials.
fn as_caller<T>(token: Option<&str>, message: T) -> tonic::Request<T> {
    let mut request = request(message, "1.0");
    if let Some(token) = token {
        let value = format!("Bearer {token}").parse().unwrap();
        request.metadata_mut().insert("authorization", value);
    }
    request
}

#[tokio::test]
async fn grpc_calls_are_authenticated_and_see_their_own_tasks() {
    let tokens = StaticTokens::new()
        .bearer("t-alice", Caller::new("alice"))
        .bearer("t-bob", Caller::new("bob"));
    let (_, target) = serve_with(Some(tokens)).await;
    let mut grpc = connect(&target).await;

    // No credentials, or ones the server does not know: UNAUTHENTICATED, before any decoding.
    let none =
        unary::<_, SendMessageResponse>(&mut grpc, "SendMessage", as_caller(None, send("x")))
            .await
            .unwrap_err();
    assert_eq!(none.code(), Code::Unauthenticated, "{none:?}");
    let wrong = unary::<_, SendMessageResponse>(
        &mut grpc,
        "SendMessage",
        as_caller(Some("t-eve"), send("x")),
    )
    .await
    .unwrap_err();
    assert_eq!(wrong.code(), Code::Unauthenticated, "{wrong:?}");

    // Alice's task is hers: Bob gets NOT_FOUND for it (spec §13.1), as over the JSON bindings.
    let reply: SendMessageResponse = unary(
        &mut grpc,
        "SendMessage",
        as_caller(Some("t-alice"), send("mine")),
    )
    .await
    .unwrap();
    let SendMessageResponse::Task(task) = reply else {
        panic!("{reply:?}")
    };
    let get = |token| {
        as_caller(
            Some(token),
            GetTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            },
        )
    };
    let hers: Task = unary(&mut grpc, "GetTask", get("t-alice")).await.unwrap();
    assert_eq!(hers.id, task.id);
    let not_his = unary::<_, Task>(&mut grpc, "GetTask", get("t-bob"))
        .await
        .unwrap_err();
    assert_eq!(not_his.code(), Code::NotFound, "{not_his:?}");
}

#[tokio::test]
async fn our_client_calls_over_grpc_when_asked() {
    use a2a_types::rt::client::{Client, ClientErrorKind};
    use a2a_types::rt::Binding;
    use a2a_types::v1::{method, A2aError, CallError, Protocol};

    let (base, target) = serve().await;
    // By default the client takes JSON-RPC; asked for gRPC first, the card's GRPC interface.
    let json = Client::<Protocol>::connect(&base).await.unwrap();
    assert_eq!(json.binding(), Binding::JsonRpc);
    let client = Client::<Protocol>::builder()
        .bindings([Binding::Grpc, Binding::JsonRpc])
        .request_timeout(Duration::from_secs(10))
        .connect(&base)
        .await
        .unwrap();
    assert_eq!(client.binding(), Binding::Grpc);
    assert_eq!(client.interface().url, target);

    // Unary calls: the typed results.
    let reply = client
        .call::<method::SendMessage>(&send("hi"))
        .await
        .unwrap();
    let SendMessageResponse::Task(task) = reply else {
        panic!("{reply:?}")
    };
    assert_eq!(text_of(&task), "hi");
    let get = GetTaskRequest {
        id: task.id.clone(),
        ..Default::default()
    };
    assert_eq!(
        client.call::<method::GetTask>(&get).await.unwrap().id,
        task.id
    );

    // The agent's errors, typed as over the JSON bindings (by the status's ErrorInfo).
    let missing = GetTaskRequest {
        id: "no-such-task".into(),
        ..Default::default()
    };
    match client.call::<method::GetTask>(&missing).await {
        Err(CallError::Agent(A2aError::TaskNotFound { .. })) => {}
        other => panic!("{other:?}"),
    }
    match client
        .call::<method::SendMessage>(&SendMessageRequest::default())
        .await
    {
        Err(CallError::Agent(e)) => assert_eq!(e.code(), -32602, "{e:?}"),
        other => panic!("{other:?}"),
    }

    // A stream: the task's events to its end.
    let mut events = client.stream::<method::SendStreamingMessage>(&send("streamed"));
    let mut last = None;
    let mut count = 0;
    while let Some(event) = events.next().await {
        last = Some(event.unwrap());
        count += 1;
    }
    assert!(count >= 2, "{count} events");
    match last.unwrap() {
        StreamResponse::StatusUpdate(update) => {
            assert_eq!(update.status.state, TaskState::Completed)
        }
        StreamResponse::Task(task) => assert_eq!(task.status.state, TaskState::Completed),
        other => panic!("{other:?}"),
    }

    // No agent there: a client error naming the call, not a hang.
    let mut card = client.card().clone();
    card["supportedInterfaces"][1]["url"] = "127.0.0.1:9".into();
    let e = no_answer(&grpc_client(&card, None), &get).await;
    assert_eq!(e.kind(), ClientErrorKind::Connect, "{e}");
    assert!(e.reason().contains("GetTask"), "{e}");
}

/// Our client to `card` over gRPC alone, trusting `root` (PEM) for TLS when one is given.
fn grpc_client(
    card: &serde_json::Value,
    root: Option<&[u8]>,
) -> a2a_types::rt::client::Client<a2a_types::v1::Protocol> {
    let mut builder = a2a_types::rt::client::Client::builder()
        .bindings([a2a_types::rt::Binding::Grpc])
        .request_timeout(Duration::from_secs(10));
    if let Some(root) = root {
        builder = builder.grpc_root_certificate(root);
    }
    builder.from_card(card).unwrap()
}

/// The client's error of a `GetTask` that got no answer from an agent.
async fn no_answer(
    client: &a2a_types::rt::client::Client<a2a_types::v1::Protocol>,
    get: &GetTaskRequest,
) -> a2a_types::rt::ClientError {
    use a2a_types::v1::{method, CallError};
    match client.call::<method::GetTask>(get).await {
        Err(CallError::Malformed(e)) => e,
        other => panic!("{other:?}"),
    }
}

/// A client that cancels a gRPC stream frees its place at once (the handler serves one stream
/// at a time here: the next is served, not refused), and the task it was watching goes on (it is
/// still working, and cancels only when asked): the server stopped only the stream's own work.
#[tokio::test]
async fn a_stream_the_client_cancels_stops_only_the_stream() {
    use a2a_types::v1::{method, CancelTaskRequest};

    let handler = RequestHandler::builder(Echo).max_streams(1).build();
    let (_, target) = serve_handler(handler, None).await;
    let card = json!({
        "name": "grpc",
        "supportedInterfaces": [{"url": target, "protocolBinding": "GRPC", "protocolVersion": "1.0"}],
        "capabilities": {"streaming": true},
    });
    let client = grpc_client(&card, None);

    // The first event tells the task; then the client goes away.
    let mut hanging = client.stream::<method::SendStreamingMessage>(&send("hang"));
    let first = hanging.next().await.unwrap().unwrap();
    let id = match first {
        StreamResponse::Task(task) => task.id,
        StreamResponse::StatusUpdate(update) => update.task_id,
        other => panic!("{other:?}"),
    };
    drop(hanging);

    // The one place is free again as soon as the server has seen the cancel.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let events = loop {
        let mut next = client.stream::<method::SendStreamingMessage>(&send("next"));
        let mut events = Vec::new();
        let mut refused = None;
        while let Some(event) = next.next().await {
            match event {
                Ok(event) => events.push(event),
                Err(e) => refused = Some(e),
            }
        }
        match refused {
            None => break events,
            Some(_) if std::time::Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Some(e) => panic!("the cancelled stream still holds its place: {e:?}"),
        }
    };
    assert!(events.len() >= 2, "{events:?}");

    // The watched task goes on: still working, until it is cancelled.
    let get = GetTaskRequest {
        id: id.clone(),
        ..Default::default()
    };
    let task = client.call::<method::GetTask>(&get).await.unwrap();
    assert_eq!(task.status.state, TaskState::Working);
    let cancel = CancelTaskRequest {
        id,
        ..Default::default()
    };
    let task = client.call::<method::CancelTask>(&cancel).await.unwrap();
    assert_eq!(task.status.state, TaskState::Canceled);
}

/// The test certificate (self-signed, for `127.0.0.1` and `localhost`, valid to 2126) and its key.
const TLS_CERT: &[u8] = include_bytes!("tls/cert.pem");
const TLS_KEY: &[u8] = include_bytes!("tls/key.pem");

/// A listener that speaks TLS (ALPN `h2`, then `http/1.1`) in front of the router, as a
/// terminating proxy does; a connection whose handshake fails is dropped.
struct TlsListener {
    tcp: tokio::net::TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<tokio::net::TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((tcp, addr)) = self.tcp.accept().await else {
                continue;
            };
            if let Ok(tls) = self.acceptor.accept(tcp).await {
                return (tls, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}

fn tls_acceptor() -> tokio_rustls::TlsAcceptor {
    use tokio_rustls::rustls::pki_types::pem::PemObject as _;
    use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
    use tokio_rustls::rustls::{crypto, ServerConfig};
    let certs = CertificateDer::pem_slice_iter(TLS_CERT)
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_slice(TLS_KEY).unwrap();
    let provider = std::sync::Arc::new(crypto::aws_lc_rs::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(config))
}

/// Our client over gRPC to an `https://` interface: TLS verified against the root it is given
/// (unary and streaming calls, typed errors, as in plain text); without that root the
/// certificate is not trusted and the call is a connection error naming the call, not a hang;
/// a plain-text interface pointed at the TLS port does not hang either.
#[tokio::test]
async fn our_client_calls_over_grpc_with_tls() {
    use a2a_types::rt::client::ClientErrorKind;
    use a2a_types::rt::Binding;
    use a2a_types::v1::{method, A2aError, CallError};

    let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let target = format!("https://{}", tcp.local_addr().unwrap());
    let card = AgentCard {
        name: "grpc-tls".into(),
        supported_interfaces: vec![AgentInterface {
            url: target.clone(),
            protocol_binding: "GRPC".into(),
            protocol_version: "1.0".into(),
            ..Default::default()
        }],
        capabilities: AgentCapabilities {
            streaming: Some(true),
            ..Default::default()
        },
        ..Default::default()
    };
    let handler = RequestHandler::builder(Echo).build();
    let router = handler.router(&card).unwrap().into_router().unwrap();
    let listener = TlsListener {
        tcp,
        acceptor: tls_acceptor(),
    };
    tokio::spawn(async move { axum::serve(listener, router).await });

    let card = serde_json::to_value(&card).unwrap();
    let client = grpc_client(&card, Some(TLS_CERT));
    assert_eq!(client.binding(), Binding::Grpc);
    let reply = client
        .call::<method::SendMessage>(&send("over tls"))
        .await
        .unwrap();
    let SendMessageResponse::Task(task) = reply else {
        panic!("{reply:?}")
    };
    assert_eq!(task.status.state, TaskState::Completed);
    let mut events = client.stream::<method::SendStreamingMessage>(&send("streamed over tls"));
    let mut count = 0;
    while let Some(event) = events.next().await {
        event.unwrap();
        count += 1;
    }
    assert!(count >= 2, "{count} events");
    let missing = GetTaskRequest {
        id: "no-such-task".into(),
        ..Default::default()
    };
    match client.call::<method::GetTask>(&missing).await {
        Err(CallError::Agent(A2aError::TaskNotFound { .. })) => {}
        other => panic!("{other:?}"),
    }

    // Not trusted: the system's roots do not have the test certificate.
    let e = no_answer(&grpc_client(&card, None), &missing).await;
    assert_eq!(e.kind(), ClientErrorKind::Connect, "{e}");
    assert!(e.reason().contains("invalid peer certificate"), "{e}");

    // Plain text to the TLS port: an error, within the request timeout.
    let mut plain = card.clone();
    plain["supportedInterfaces"][0]["url"] = target.replace("https://", "http://").into();
    let started = std::time::Instant::now();
    let e = no_answer(&grpc_client(&plain, None), &missing).await;
    assert!(e.reason().contains("http2 error"), "{e}");
    assert!(started.elapsed() < Duration::from_secs(10));
}
