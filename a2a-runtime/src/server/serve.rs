//! Serving a router on a TCP listener: [`serve`] and [`serve_with`], with the bounds a server
//! facing clients it does not control needs ([`ServeOptions`]): how long a request head may take
//! to arrive, how long a connection may sit idle, how many connections are served at once, and
//! how long a shutdown waits for the requests in flight.
//!
//! Written over hyper-util's connection builder rather than `axum::serve`, which sets none of
//! these (hyper's header-read timeout needs a timer axum does not give it, so a client that sends
//! half a request head held its socket for good).

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::response::Response;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch, OwnedSemaphorePermit, Semaphore};

/// How [`serve_with`] serves connections. Every bound has a default for a server on the public
/// internet; [`ServeOptions::default`] is what [`serve`] uses.
///
/// ```
/// use a2a_runtime::server::ServeOptions;
/// use std::time::Duration;
///
/// let options = ServeOptions::default()
///     .grace(Duration::from_secs(10))
///     .header_read_timeout(Some(Duration::from_secs(5)))
///     .idle_timeout(Some(Duration::from_secs(30)))
///     .max_connections(2_000);
/// # let _ = options;
/// // serve_with(listener, app, shutdown, options).await?;
/// ```
#[derive(Clone, Debug)]
pub struct ServeOptions {
    grace: Duration,
    header_read_timeout: Option<Duration>,
    idle_timeout: Option<Duration>,
    max_connections: usize,
}

impl Default for ServeOptions {
    /// A 5-second grace, request heads within 10 seconds, connections idle at most 60 seconds,
    /// 10,000 connections at once.
    fn default() -> Self {
        ServeOptions {
            grace: Duration::from_secs(5),
            header_read_timeout: Some(Duration::from_secs(10)),
            idle_timeout: Some(Duration::from_secs(60)),
            max_connections: 10_000,
        }
    }
}

impl ServeOptions {
    /// After the shutdown signal: how long the requests in flight (open streams included) may
    /// take before the server returns and drops them.
    #[must_use]
    pub fn grace(mut self, grace: Duration) -> Self {
        self.grace = grace;
        self
    }

    /// HTTP/1: how long a request head (request line and headers) may take to arrive, counted
    /// from when the connection starts waiting for it (its accept, or the end of the response
    /// before). A client that is slower is disconnected. This also bounds how long an HTTP/1
    /// keep-alive connection waits for its next request. `None`: no bound.
    #[must_use]
    pub fn header_read_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.header_read_timeout = timeout;
        self
    }

    /// How long a connection with no request in flight is kept (HTTP/1 and HTTP/2; a request
    /// in flight, a stream being sent included, keeps it however long it takes). The connection
    /// is closed gracefully between `timeout` and 1.5 × `timeout` after its last request ended.
    /// `None`: no bound.
    #[must_use]
    pub fn idle_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// How many connections are served at once (at least 1). At the cap, the server accepts no
    /// more until one closes: new clients wait in the listener's backlog.
    #[must_use]
    pub fn max_connections(mut self, max: usize) -> Self {
        self.max_connections = max.max(1);
        self
    }
}

/// Serves `router` on `listener` until `shutdown` completes, then stops taking connections and
/// waits for the requests in flight (open streams included) at most `grace`. The other bounds
/// are [`ServeOptions::default`]'s; [`serve_with`] chooses them.
///
/// Every connection has `TCP_NODELAY` set: a streamed response writes its head, then each event
/// as it comes, and with Nagle's algorithm on, the first event waited for the client's delayed
/// ACK of the head (about 40 ms on Linux) before it left.
pub async fn serve(
    listener: TcpListener,
    router: axum::Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> std::io::Result<()> {
    serve_with(
        listener,
        router,
        shutdown,
        ServeOptions::default().grace(grace),
    )
    .await
}

/// [`serve`] with the bounds of `options`.
///
/// # Errors
///
/// None so far: a failed accept (out of file descriptors, a connection reset before it was
/// accepted) is logged (`tracing`, target `a2a_runtime::server`) and retried; the result leaves
/// room for errors a future listener may have.
pub async fn serve_with(
    listener: TcpListener,
    router: axum::Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    options: ServeOptions,
) -> std::io::Result<()> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(options.header_read_timeout);
    let builder = Arc::new(builder);
    let permits = Arc::new(Semaphore::new(options.max_connections));
    // Connections watch `stopping`; each holds a `done` sender, so `finished` ends with the last.
    let (stopping, stop) = watch::channel(false);
    let (done, mut finished) = mpsc::channel::<()>(1);
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&permits).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let tcp = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, _peer)) => tcp,
                Err(e) => {
                    accept_failed(&e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // A socket that refuses the option is served all the same.
        let _ = tcp.set_nodelay(true);
        tokio::spawn(connection(Connection {
            tcp,
            router: router.clone(),
            builder: Arc::clone(&builder),
            idle: options.idle_timeout,
            stop: stop.clone(),
            _done: done.clone(),
            _permit: permit,
        }));
    }
    drop(listener);
    let _ = stopping.send(true);
    drop(done);
    let _ = tokio::time::timeout(options.grace, finished.recv()).await;
    Ok(())
}

/// Waits a moment after a failed accept: at once for a connection the peer gave up on, 50 ms
/// when the process is out of descriptors (they come back as connections close).
async fn accept_failed(e: &std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::warn!(target: "a2a_runtime::server", "accepting a connection failed: {e}; retrying in 50 ms");
    tokio::time::sleep(Duration::from_millis(50)).await;
}

/// One accepted connection and what it holds while it is served.
struct Connection {
    tcp: TcpStream,
    router: axum::Router,
    builder: Arc<auto::Builder<TokioExecutor>>,
    idle: Option<Duration>,
    stop: watch::Receiver<bool>,
    _done: mpsc::Sender<()>,
    _permit: OwnedSemaphorePermit,
}

async fn connection(mut c: Connection) {
    let activity = Arc::new(Activity::default());
    let service = TowerToHyperService::new(Counted {
        router: c.router.clone(),
        activity: Arc::clone(&activity),
    });
    let conn = c
        .builder
        .serve_connection_with_upgrades(TokioIo::new(c.tcp), service);
    tokio::pin!(conn);
    // Idle checks every half idle period: closed after two quiet checks in a row.
    let mut ticks = c.idle.map(|idle| {
        let half = (idle / 2).max(Duration::from_millis(1));
        tokio::time::interval_at(tokio::time::Instant::now() + half, half)
    });
    let (mut quiet, mut seen, mut closing) = (0u8, 0u64, false);
    loop {
        tokio::select! {
            _ = conn.as_mut() => break,
            changed = c.stop.changed(), if !closing => {
                if changed.is_err() || *c.stop.borrow() {
                    closing = true;
                    conn.as_mut().graceful_shutdown();
                }
            }
            _ = async { ticks.as_mut().expect("ticking").tick().await }, if ticks.is_some() && !closing => {
                let events = activity.events.load(Ordering::Relaxed);
                let busy = activity.active.load(Ordering::Relaxed) > 0;
                quiet = if busy || events != seen { 0 } else { quiet + 1 };
                seen = events;
                if quiet >= 2 {
                    closing = true;
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// A connection's requests: how many are in flight, and how many began or ended so far.
#[derive(Default)]
struct Activity {
    active: AtomicUsize,
    events: AtomicU64,
}

/// Counts a request in flight until its response body is done (or dropped).
struct InFlight(Arc<Activity>);

impl InFlight {
    fn begin(activity: &Arc<Activity>) -> InFlight {
        activity.active.fetch_add(1, Ordering::Relaxed);
        activity.events.fetch_add(1, Ordering::Relaxed);
        InFlight(Arc::clone(activity))
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::Relaxed);
        self.0.events.fetch_add(1, Ordering::Relaxed);
    }
}

/// The router, counting each request in flight on its connection.
#[derive(Clone)]
struct Counted {
    router: axum::Router,
    activity: Arc<Activity>,
}

type CountedFuture = Pin<Box<dyn Future<Output = Result<Response<Tracked>, Infallible>> + Send>>;

impl tower_service::Service<hyper::Request<Incoming>> for Counted {
    type Response = Response<Tracked>;
    type Error = Infallible;
    type Future = CountedFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // An axum Router is always ready.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: hyper::Request<Incoming>) -> Self::Future {
        let guard = InFlight::begin(&self.activity);
        let response = tower_service::Service::call(&mut self.router, request.map(Body::new));
        Box::pin(async move {
            let response = response.await?;
            Ok(response.map(|body| Tracked {
                body,
                _guard: guard,
            }))
        })
    }
}

/// A response body that keeps its request counted in flight until it ends or is dropped.
struct Tracked {
    body: Body,
    _guard: InFlight,
}

impl http_body::Body for Tracked {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    async fn start(
        options: ServeOptions,
    ) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>) {
        let router = axum::Router::new()
            .route("/", axum::routing::get(|| async { "ok" }))
            .route(
                "/slow",
                axum::routing::get(|| async {
                    tokio::time::sleep(Duration::from_millis(800)).await;
                    "slow"
                }),
            );
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(serve_with(
            listener,
            router,
            async move {
                let _ = stopped.await;
            },
            options,
        ));
        (addr, stop)
    }

    /// Reads until the server closes the connection or `within` passes: the bytes read, and
    /// whether it was closed.
    async fn read_until_closed(tcp: &mut TcpStream, within: Duration) -> (Vec<u8>, bool) {
        let mut got = Vec::new();
        let deadline = tokio::time::Instant::now() + within;
        let mut buf = [0u8; 4096];
        loop {
            match tokio::time::timeout_at(deadline, tcp.read(&mut buf)).await {
                Err(_) => return (got, false),
                Ok(Ok(0)) | Ok(Err(_)) => return (got, true),
                Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            }
        }
    }

    const GET: &[u8] = b"GET / HTTP/1.1\r\nhost: t\r\n\r\n";

    #[tokio::test]
    async fn half_sent_request_heads_are_cut_at_the_header_read_timeout() {
        let options = ServeOptions::default()
            .header_read_timeout(Some(Duration::from_millis(300)))
            .idle_timeout(None);
        let (addr, _stop) = start(options).await;
        let started = tokio::time::Instant::now();
        let mut stalled = Vec::new();
        for _ in 0..200 {
            let mut tcp = TcpStream::connect(addr).await.unwrap();
            tcp.write_all(b"GET / HTTP/1.1\r\nhost: t\r\n")
                .await
                .unwrap();
            stalled.push(tcp);
        }
        for tcp in &mut stalled {
            let (_, closed) = read_until_closed(tcp, Duration::from_secs(5)).await;
            assert!(closed, "a stalled client still holds its socket");
        }
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
        // And the server still serves.
        let mut tcp = TcpStream::connect(addr).await.unwrap();
        tcp.write_all(GET).await.unwrap();
        let mut buf = [0u8; 256];
        let n = tcp.read(&mut buf).await.unwrap();
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
    }

    #[tokio::test]
    async fn an_idle_connection_is_closed_but_not_one_waiting_for_its_response() {
        let options = ServeOptions::default()
            .header_read_timeout(None)
            .idle_timeout(Some(Duration::from_millis(300)));
        let (addr, _stop) = start(options).await;
        // Idle after one exchange: closed between 300 and 450 ms later (plus scheduling).
        let mut idle = TcpStream::connect(addr).await.unwrap();
        idle.write_all(GET).await.unwrap();
        let (reply, closed) = read_until_closed(&mut idle, Duration::from_secs(3)).await;
        assert!(closed && reply.starts_with(b"HTTP/1.1 200"), "{closed}");
        // A request that takes 800 ms, longer than the idle timeout: answered whole.
        let mut busy = TcpStream::connect(addr).await.unwrap();
        busy.write_all(b"GET /slow HTTP/1.1\r\nhost: t\r\n\r\n")
            .await
            .unwrap();
        let (reply, _) = read_until_closed(&mut busy, Duration::from_secs(3)).await;
        let reply = String::from_utf8_lossy(&reply);
        assert!(
            reply.starts_with("HTTP/1.1 200") && reply.ends_with("slow"),
            "{reply}"
        );
    }

    #[tokio::test]
    async fn past_the_connection_cap_a_client_waits_until_one_closes() {
        let options = ServeOptions::default()
            .idle_timeout(None)
            .max_connections(2);
        let (addr, _stop) = start(options).await;
        let mut first = TcpStream::connect(addr).await.unwrap();
        first.write_all(GET).await.unwrap();
        let mut buf = [0u8; 256];
        assert!(first.read(&mut buf).await.unwrap() > 0);
        let mut second = TcpStream::connect(addr).await.unwrap();
        second.write_all(GET).await.unwrap();
        assert!(second.read(&mut buf).await.unwrap() > 0);
        // The third is accepted by the kernel but not served.
        let mut third = TcpStream::connect(addr).await.unwrap();
        third.write_all(GET).await.unwrap();
        let waited = tokio::time::timeout(Duration::from_millis(300), third.read(&mut buf)).await;
        assert!(waited.is_err(), "served past the cap");
        drop(first);
        let n = tokio::time::timeout(Duration::from_secs(3), third.read(&mut buf))
            .await
            .expect("served once a connection closed")
            .unwrap();
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
    }

    #[tokio::test]
    async fn shutdown_stops_accepting_and_closes_idle_connections() {
        let (addr, stop) = start(ServeOptions::default().grace(Duration::from_millis(500))).await;
        let mut idle = TcpStream::connect(addr).await.unwrap();
        idle.write_all(GET).await.unwrap();
        let mut buf = [0u8; 256];
        assert!(idle.read(&mut buf).await.unwrap() > 0);
        stop.send(()).unwrap();
        let (_, closed) = read_until_closed(&mut idle, Duration::from_secs(3)).await;
        assert!(closed);
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(TcpStream::connect(addr).await.is_err(), "still accepting");
    }
}
