//! What the load generators (`src/bin/serve_load.rs`, `src/bin/client_load.rs`,
//! `src/bin/scale_load.rs`) share: the bounds of a run and their command-line flags, the
//! percentile they report, and one HTTP/1.1 connection and exchange.

use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::{self, SendRequest};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;

/// One kept-alive HTTP/1.1 connection to the agent.
pub type Sender = SendRequest<Full<Bytes>>;

/// A connection to `authority` (no Nagle delay), its driver spawned on the runtime.
///
/// # Errors
///
/// Why the connection or the handshake failed.
pub async fn connect(authority: &str) -> Result<Sender, String> {
    let stream = tokio::net::TcpStream::connect(authority)
        .await
        .map_err(|e| format!("connect: {}", e.kind()))?;
    stream.set_nodelay(true).ok();
    let (sender, connection) = http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok(sender)
}

/// Sends `request` once the connection is ready, and reads the whole reply: its body, when its
/// status is 200.
///
/// # Errors
///
/// Why the exchange failed, or `HTTP <status>`.
pub async fn exchange(sender: &mut Sender, request: Request<Full<Bytes>>) -> Result<Bytes, String> {
    let response = send(sender, request).await?;
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .map_err(|e| format!("body: {e}"))?
        .to_bytes();
    if status != StatusCode::OK {
        return Err(format!("HTTP {}", status.as_u16()));
    }
    Ok(bytes)
}

/// Sends `request` once the connection is ready: the response, its body still to be read (a
/// stream's events as they come).
///
/// # Errors
///
/// Why the connection or the request failed.
pub async fn send(
    sender: &mut Sender,
    request: Request<Full<Bytes>>,
) -> Result<hyper::Response<hyper::body::Incoming>, String> {
    sender
        .ready()
        .await
        .map_err(|e| format!("connection: {e}"))?;
    sender
        .send_request(request)
        .await
        .map_err(|e| format!("request: {e}"))
}

/// How much load a run makes, and for how long.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Concurrent connections (or calls).
    pub connections: usize,
    /// At most this many requests per measurement.
    pub requests: usize,
    /// At most this long per measurement.
    pub seconds: f64,
    /// Unmeasured load before it.
    pub warmup: f64,
    /// The tokio runtime's worker threads.
    pub threads: usize,
}

/// The bounds' flags as they are read: `--connections`, `--requests`, `--seconds`, `--warmup`,
/// `--threads` and `--smoke` (200 requests or 1 s, 0.2 s of warm-up, unless given).
#[derive(Debug, Default)]
pub struct BoundsArgs {
    connections: Option<usize>,
    requests: Option<usize>,
    seconds: Option<f64>,
    warmup: Option<f64>,
    threads: Option<usize>,
    smoke: bool,
}

fn number<T: std::str::FromStr>(name: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{name}: {v:?} is not a number"))
}

impl BoundsArgs {
    /// Takes `arg` when it is one of the bounds' flags (reading its value with `value`): `true`
    /// when it was.
    pub fn take(
        &mut self,
        arg: &str,
        value: &mut dyn FnMut() -> Result<String, String>,
    ) -> Result<bool, String> {
        match arg {
            "--connections" => self.connections = Some(number(arg, &value()?)?),
            "--requests" => self.requests = Some(number(arg, &value()?)?),
            "--seconds" => self.seconds = Some(number(arg, &value()?)?),
            "--warmup" => self.warmup = Some(number(arg, &value()?)?),
            "--threads" => self.threads = Some(number(arg, &value()?)?),
            "--smoke" => self.smoke = true,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The bounds: the flags given, else the defaults (32 connections, 20,000 requests or 8 s
    /// after 1 s of warm-up, 2 threads; `--smoke`: 200 requests or 1 s after 0.2 s), checked.
    pub fn finish(self) -> Result<Bounds, String> {
        let (requests, seconds, warmup) = match self.smoke {
            true => (200, 1.0, 0.2),
            false => (20_000, 8.0, 1.0),
        };
        let bounds = Bounds {
            connections: self.connections.unwrap_or(32),
            requests: self.requests.unwrap_or(requests),
            seconds: self.seconds.unwrap_or(seconds),
            warmup: self.warmup.unwrap_or(warmup),
            threads: self.threads.unwrap_or(2),
        };
        if bounds.connections == 0 || bounds.requests == 0 || bounds.threads == 0 {
            return Err("--connections, --requests and --threads must be at least 1".to_string());
        }
        if !(bounds.seconds > 0.0 && bounds.warmup >= 0.0) {
            return Err("--seconds must be above 0 and --warmup at least 0".to_string());
        }
        Ok(bounds)
    }
}

/// The `q` quantile (0..=1) of sorted microseconds, in milliseconds, by nearest rank (as
/// `bench/python/client_bench.py` computes it); `None` for no samples.
pub fn quantile_ms(sorted: &[u32], q: f64) -> Option<f64> {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted
        .get(rank.clamp(1, sorted.len().max(1)) - 1)
        .map(|&us| f64::from(us) / 1000.0)
}

/// An SSE reader: lines in, the data of each whole event out (the SSE rules the agents use:
/// `\n` or `\r\n` line ends, `data:` lines joined, comments and other fields ignored).
#[derive(Default)]
pub struct Sse {
    pending: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
}

impl Sse {
    /// Feeds a chunk; returns the events it completed.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Vec<u8>> {
        self.pending.extend_from_slice(chunk);
        let mut events = Vec::new();
        let mut start = 0;
        while let Some(i) = self.pending[start..].iter().position(|&b| b == b'\n') {
            let mut line = &self.pending[start..start + i];
            start += i + 1;
            if let [head @ .., b'\r'] = line {
                line = head;
            }
            if line.is_empty() {
                if self.has_data {
                    events.push(std::mem::take(&mut self.data));
                    self.has_data = false;
                }
            } else if let Some(value) = line.strip_prefix(b"data:") {
                let value = value.strip_prefix(b" ").unwrap_or(value);
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
        }
        self.pending.drain(..start);
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoke_and_given_flags_set_the_bounds() {
        let mut args = BoundsArgs::default();
        assert!(args.take("--smoke", &mut || unreachable!()).unwrap());
        assert!(args.take("--requests", &mut || Ok("50".into())).unwrap());
        assert!(!args.take("--label", &mut || unreachable!()).unwrap());
        let bounds = args.finish().unwrap();
        assert_eq!(
            (bounds.requests, bounds.seconds, bounds.connections),
            (50, 1.0, 32)
        );
        let mut zero = BoundsArgs::default();
        zero.take("--threads", &mut || Ok("0".into())).unwrap();
        assert!(zero.finish().is_err());
    }

    #[test]
    fn nearest_rank_quantiles() {
        assert_eq!(quantile_ms(&[1000, 2000, 3000, 4000], 0.5), Some(2.0));
        assert_eq!(quantile_ms(&[1000, 2000, 3000, 4000], 0.99), Some(4.0));
        assert_eq!(quantile_ms(&[], 0.5), None);
    }
}
