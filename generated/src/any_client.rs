//! One client for agents of either version (feature `client`), written against 1.0: see
//! [`AnyClient`]. Hand-written: it joins the runtime's client (`rt::client::Client`, one per
//! generated module) and the conversions generated between the modules (`v0_3::Counterpart`,
//! `rt::convert`), which neither knows of the other.

use crate::rt::client::{BuildError, CallError, CallStream, Client, ClientError, ClientErrorKind};
use crate::rt::convert::{lossy, strict, Convert, ConvertError};
use crate::rt::rest::RestMethod;
use crate::rt::version::ProtocolVersion;
use crate::rt::Method;
use crate::{v0_3, v1};
use futures_core::Stream;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::pin::Pin;
use std::task::{Context, Poll};

/// A client written against A2A 1.0 that also calls agents speaking only 0.3: it connects in 1.0
/// when the card offers it, else in 0.3, and then converts each call's params down and its
/// result up through the generated conversions, so the caller sees 1.0 types either way.
///
/// What a 0.3 reply cannot carry, the 1.0 value leaves at its default (a 0.3 task has no
/// `statusTimestamp` filter or page token, a file's `bytes` arrive as base64 text and are
/// decoded); what a 0.3 agent sends that 1.0 has no place for is dropped as a2a-sdk's compat layer
/// drops it (a card's `stateTransitionHistory`, the second OAuth flow). Params that 0.3 cannot
/// express (a text part's `filename`, `ROLE_UNSPECIFIED`) fail the call before it is sent with a
/// [`ClientErrorKind::Request`] error naming the member. 1.0 methods that 0.3 has not got
/// (`ListTasks`) do not compile against [`AnyClient::call`]: they have no
/// [`v0_3::Counterpart`].
///
/// ```no_run
/// use a2a_types::v1::{method, Message, Part, PartContent, Role, SendMessageRequest};
/// use a2a_types::AnyClient;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let client = AnyClient::connect("http://127.0.0.1:3000").await?; // 1.0 or 0.3
/// let request = SendMessageRequest {
///     message: Message {
///         message_id: "m-1".into(),
///         role: Role::User,
///         parts: vec![Part { content: PartContent::Text("hi".into()), ..Default::default() }],
///         ..Default::default()
///     },
///     ..Default::default()
/// };
/// let reply = client.call::<method::SendMessage>(&request).await?; // a v1::SendMessageResponse
/// # drop(reply);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub enum AnyClient {
    /// The agent speaks 1.0.
    V1(Client<v1::Protocol>),
    /// The agent speaks 0.3 only.
    V0_3(Client<v0_3::Protocol>),
}

/// A call's error as a 1.0 caller sees it.
pub type AnyCallError = CallError<v1::A2aError>;

impl AnyClient {
    /// Reads the agent's card at `url` and connects in 1.0 when it offers 1.0, else in 0.3. For
    /// the builders' options (bindings, headers, timeouts), build either client and convert it
    /// with `From`.
    pub async fn connect(url: &str) -> Result<AnyClient, BuildError> {
        match Client::<v1::Protocol>::connect(url).await {
            Ok(client) => Ok(AnyClient::V1(client)),
            Err(BuildError::OtherVersion { offered, .. })
                if offered.contains(&ProtocolVersion::V0_3) =>
            {
                Client::<v0_3::Protocol>::connect(url)
                    .await
                    .map(AnyClient::V0_3)
            }
            Err(e) => Err(e),
        }
    }

    /// The version the agent is called in.
    pub fn version(&self) -> ProtocolVersion {
        match self {
            AnyClient::V1(_) => ProtocolVersion::V1_0,
            AnyClient::V0_3(_) => ProtocolVersion::V0_3,
        }
    }

    /// Calls the 1.0 method `M` (in 0.3: its counterpart, the params converted down and the
    /// result up).
    pub async fn call<M>(&self, params: &M::Params) -> Result<M::Result, AnyCallError>
    where
        M: v0_3::Counterpart + RestMethod,
        M::Params: Serialize + Clone + Convert<<M::Method as Method>::Params>,
        M::Result: DeserializeOwned,
        M::Method: RestMethod,
        <M::Method as Method>::Params: Serialize + Clone,
        <M::Method as Method>::Result: DeserializeOwned + Convert<M::Result>,
    {
        match self {
            AnyClient::V1(client) => client.call::<M>(params).await,
            AnyClient::V0_3(client) => {
                let params = strict(params.clone()).map_err(not_expressible)?;
                let result = client.call::<M::Method>(&params).await.map_err(recode)?;
                up(result)
            }
        }
    }

    /// Calls the streaming 1.0 method `M` (in 0.3: its counterpart, each event converted up).
    pub fn stream<M>(&self, params: &M::Params) -> AnyStream<M::Result>
    where
        M: v0_3::Counterpart + RestMethod,
        M::Params: Serialize + Clone + Convert<<M::Method as Method>::Params>,
        M::Result: DeserializeOwned + Send + 'static,
        M::Method: RestMethod,
        <M::Method as Method>::Params: Serialize + Clone,
        <M::Method as Method>::Result: DeserializeOwned + Convert<M::Result> + Send + 'static,
    {
        match self {
            AnyClient::V1(client) => AnyStream(Inner::V1(client.stream::<M>(params))),
            AnyClient::V0_3(client) => match strict(params.clone()) {
                Ok(params) => AnyStream(Inner::V0_3(Box::new(client.stream::<M::Method>(&params)))),
                Err(e) => AnyStream(Inner::Refused(Some(not_expressible(e)))),
            },
        }
    }
}

impl From<Client<v1::Protocol>> for AnyClient {
    fn from(client: Client<v1::Protocol>) -> Self {
        AnyClient::V1(client)
    }
}

impl From<Client<v0_3::Protocol>> for AnyClient {
    fn from(client: Client<v0_3::Protocol>) -> Self {
        AnyClient::V0_3(client)
    }
}

/// The events of [`AnyClient::stream`], as 1.0 types.
pub struct AnyStream<T>(Inner<T>);

enum Inner<T> {
    V1(CallStream<T, v1::A2aError>),
    V0_3(Box<dyn ConvertingStream<T>>),
    Refused(Option<AnyCallError>),
}

/// A 0.3 stream whose events convert to `T` (boxed: its item type is the 0.3 method's result).
trait ConvertingStream<T>: Send {
    fn poll_event(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<T, AnyCallError>>>;
}

impl<R, T> ConvertingStream<T> for CallStream<R, v0_3::A2aError>
where
    R: Convert<T> + Send + 'static,
{
    fn poll_event(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<T, AnyCallError>>> {
        Pin::new(self)
            .poll_next(cx)
            .map(|item| item.map(|event| event.map_err(recode).and_then(up)))
    }
}

impl<T> Stream for AnyStream<T> {
    type Item = Result<T, AnyCallError>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match &mut self.0 {
            Inner::V1(stream) => Pin::new(stream).poll_next(cx),
            Inner::V0_3(stream) => stream.poll_event(cx),
            Inner::Refused(error) => Poll::Ready(error.take().map(Err)),
        }
    }
}

/// A 0.3 result as 1.0's: what 1.0 has no place for is left out.
fn up<R: Convert<T>, T>(result: R) -> Result<T, AnyCallError> {
    lossy(result).map(|(value, _)| value).map_err(|e| {
        CallError::Malformed(ClientError::new(format!(
            "the 0.3 reply has no 1.0 form: {e}"
        )))
    })
}

/// Params 0.3 cannot express: the call is not made.
fn not_expressible(e: ConvertError) -> AnyCallError {
    CallError::Malformed(
        ClientError::new(format!(
            "A2A 0.3 cannot express the params: {}",
            e.within("params")
        ))
        .with_kind(ClientErrorKind::Request),
    )
}

/// A 0.3 agent's error as 1.0's (the same code, message and data).
fn recode(e: CallError<v0_3::A2aError>) -> AnyCallError {
    match e {
        CallError::Agent(a) => CallError::Agent(v1::A2aError::from_code(
            a.code(),
            Some(a.message().to_owned()),
            a.data().cloned(),
        )),
        CallError::Custom { error, .. } => match error {},
        CallError::Malformed(e) => CallError::Malformed(e),
    }
}
