//! The agent side's plumbing, shared by the v1 and the v0.3 agent: binding a free loopback port,
//! telling run.sh the port, and the kinds of response (one JSON body, a REST reply, an SSE
//! stream).
//! What goes into the bodies is the job of the a2a-types module the agent is built on.

use a2a_types::rt::rest::RestResponse;
use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::convert::Infallible;
use std::time::Duration;

/// The pause between two streamed events, so the client reads them as they happen.
pub const EVENT_GAP: Duration = Duration::from_millis(20);

/// One JSON body.
pub fn json(body: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A reply of the REST binding: its status, content type and body.
pub fn rest(response: RestResponse) -> Response {
    let status = StatusCode::from_u16(response.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let content_type = HeaderValue::from_static(response.content_type);
    (
        status,
        [(header::CONTENT_TYPE, content_type)],
        response.body,
    )
        .into_response()
}

/// An SSE response of ready-made frames, one every [`EVENT_GAP`].
pub fn sse(frames: Vec<Vec<u8>>) -> Response {
    let body = futures_util::stream::unfold(
        (frames.into_iter(), true),
        |(mut frames, first)| async move {
            let frame = frames.next()?;
            if !first {
                tokio::time::sleep(EVENT_GAP).await;
            }
            Some((Ok::<_, Infallible>(frame), (frames, false)))
        },
    );
    let mut response = Response::new(Body::from_stream(body));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// Binds 127.0.0.1 on a free port, builds the app for that port, writes the port to `port_file`
/// and serves until killed. Exits with status 1 when it cannot.
pub async fn serve(name: &str, port_file: &str, app: impl FnOnce(u16) -> Router) {
    let listener = match tokio::net::TcpListener::bind("127.0.0.1:0").await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("{name}: cannot bind 127.0.0.1: {e}");
            std::process::exit(1);
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    let app = app(port);
    if let Err(e) = std::fs::write(port_file, format!("{port}\n")) {
        eprintln!("{name}: cannot write {port_file}: {e}");
        std::process::exit(1);
    }
    eprintln!("{name}: serving on 127.0.0.1:{port}");
    if let Err(e) = axum::serve(listener, app).await {
        eprintln!("{name}: {e}");
        std::process::exit(1);
    }
}
