//! The HTTP client on reqwest and tokio (feature `client`; the rules are in the
//! [`client` module's docs](crate::client)): [`Client`] itself, bound to one interface of a card,
//! here; how it is built from the card ([`ClientBuilder`], [`BuildError`]) in `builder`; its
//! unary calls and the sending and reading they share in `call`; and the events of a streaming
//! call ([`CallStream`]), read by a state machine whose steps are unit-tested without a network,
//! in `reader`. Every byte on the wire is written and read by the sans-IO client
//! ([`encode_call`](crate::client::encode_call), [`Decoder`]).

use crate::client::Decoder;
use crate::limits::Limits;
use crate::version::{Binding, Interface, ProtocolModule};
pub use http::{HeaderMap, HeaderName, HeaderValue};
/// The reqwest this module is built on, for a [`reqwest::Client`] of your own
/// ([`ClientBuilder::http_client`]) of the same version.
pub use reqwest;
use serde::Serialize;
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;
use std::sync::atomic::AtomicI64;
use std::sync::Arc;
use std::time::Duration;

mod builder;
mod call;
#[cfg(feature = "grpc")]
mod grpc;
mod reader;

pub use builder::{BuildError, ClientBuilder};
pub use reader::CallStream;

/// The connect timeout of a client this module builds, unless set.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// The request timeout, unless set.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// The idle timeout of a stream, unless set.
pub const DEFAULT_STREAM_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// Where an agent publishes its card, below its base URL (spec §8.2).
pub const AGENT_CARD_PATH: &str = "/.well-known/agent-card.json";

/// A typed A2A client for the protocol version of the generated module `P`, bound to one
/// interface of an agent's card. Cheap to clone (the clones share the connection pool); every
/// method takes `&self`, so one client serves concurrent calls.
///
/// See the [module docs](crate::client) for the rules.
pub struct Client<P> {
    inner: Arc<Inner>,
    protocol: PhantomData<fn() -> P>,
}

/// A function adding headers to every request (credentials): see [`ClientBuilder::auth`].
type AuthHook = Arc<dyn Fn(&mut HeaderMap) + Send + Sync>;

struct Inner {
    http: reqwest::Client,
    card: Value,
    interface: Interface,
    binding: Binding,
    /// `A2A-Extensions` and the caller's headers, in that order.
    headers: HeaderMap,
    auth: Option<AuthHook>,
    limits: Limits,
    request_timeout: Option<Duration>,
    idle_timeout: Option<Duration>,
    next_id: AtomicI64,
    /// The gRPC channel's target, when the binding is gRPC (feature `grpc`).
    #[cfg(feature = "grpc")]
    grpc: Option<grpc::GrpcTarget>,
    /// Which signature of the card verified, when the builder was given a verifier.
    #[cfg(feature = "trust")]
    verified: Option<crate::trust::Verified>,
}

impl<P> Clone for Client<P> {
    fn clone(&self) -> Self {
        Client {
            inner: Arc::clone(&self.inner),
            protocol: PhantomData,
        }
    }
}

impl<P> fmt::Debug for Client<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("interface", &self.inner.interface)
            .field("limits", &self.inner.limits)
            .field("request_timeout", &self.inner.request_timeout)
            .field("idle_timeout", &self.inner.idle_timeout)
            .finish_non_exhaustive()
    }
}

impl<P: ProtocolModule> Client<P> {
    /// A builder with the defaults: JSON-RPC then HTTP+JSON, [`DEFAULT_CONNECT_TIMEOUT`],
    /// [`DEFAULT_REQUEST_TIMEOUT`], [`DEFAULT_STREAM_IDLE_TIMEOUT`], [`Limits::DEFAULT`], no
    /// extra headers.
    pub fn builder() -> ClientBuilder<P> {
        ClientBuilder::default()
    }

    /// A client with the defaults, on the card fetched from `url` (see
    /// [`ClientBuilder::connect`]).
    pub async fn connect(url: &str) -> Result<Self, BuildError> {
        Self::builder().connect(url).await
    }

    /// A client with the defaults, on a card already in hand (see [`ClientBuilder::from_card`]).
    pub fn from_card<C: Serialize + ?Sized>(card: &C) -> Result<Self, BuildError> {
        Self::builder().from_card(card)
    }

    /// The agent's card, as it was read.
    pub fn card(&self) -> &Value {
        &self.inner.card
    }

    /// Which signature of the card verified, when the builder was given a verifier
    /// ([`ClientBuilder::verify_card`]; feature `trust`).
    #[cfg(feature = "trust")]
    pub fn verified_card(&self) -> Option<&crate::trust::Verified> {
        self.inner.verified.as_ref()
    }

    /// This client (just built, not yet shared) with its card's verification.
    #[cfg(feature = "trust")]
    fn with_verified(mut self, verified: Option<crate::trust::Verified>) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            inner.verified = verified;
        }
        self
    }

    /// The interface the client calls (its URL resolved).
    pub fn interface(&self) -> &Interface {
        &self.inner.interface
    }

    /// The binding the client calls over.
    pub fn binding(&self) -> Binding {
        self.inner.binding
    }
}

impl Inner {
    /// How this client's replies decode: its binding and limits, errors of `A` and `E`.
    fn decoder<A, E>(&self) -> Decoder<A, E> {
        Decoder::new()
            .binding(self.binding)
            .limits(self.limits)
            .custom_errors::<E>()
    }
}
