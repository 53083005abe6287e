//! Receiving push notifications: the client's webhook (spec §4.3).
//!
//! An agent POSTs each task update to the URL a client registered (in a
//! `TaskPushNotificationConfig`), as a JSON `StreamResponse` (the shape of one streamed event),
//! with the registered token in `X-A2A-Notification-Token` and, when the config asked for it,
//! `Authorization: <scheme> <credentials>` (what a2a-sdk 1.3.0's sender writes).
//! [`WebhookReceiver`] checks both before anything trusts the body, then decodes the body as the
//! caller's type with the stream's tolerance (unknown members, open enums and oneofs as the
//! generated types read them) and the decoders' limits. It is sans-IO: give it the headers and the
//! body. With the `server` feature, [`webhook_route`] is the same as an axum route.
//!
//! ```
//! use a2a_runtime::trust::webhook::{WebhookError, WebhookReceiver, TOKEN_HEADER};
//! use http::HeaderMap;
//! use serde_json::Value;
//!
//! // `Value` stands for the generated `StreamResponse` (a2a_types::v1::StreamResponse).
//! let receiver = WebhookReceiver::new().token("the registered token");
//! let mut headers = HeaderMap::new();
//! headers.insert(TOKEN_HEADER, "the registered token".parse().unwrap());
//! let event: Value = receiver.receive(&headers, br#"{"statusUpdate":{"taskId":"t-1"}}"#).unwrap();
//! assert_eq!(event["statusUpdate"]["taskId"], "t-1");
//!
//! headers.insert(TOKEN_HEADER, "a guess".parse().unwrap());
//! let refused = receiver.receive::<Value>(&headers, b"{}").unwrap_err();
//! assert_eq!((refused.clone(), refused.status()), (WebhookError::WrongToken, 401));
//! ```

use crate::body::{excerpt, short_type_name, trim, without_bom};
use crate::limits::Limits;
use http::HeaderMap;
use serde::de::DeserializeOwned;
use std::fmt;

/// The header carrying the token the client registered.
pub const TOKEN_HEADER: &str = "x-a2a-notification-token";

/// Checks a push notification's token and `Authorization`, and decodes its body.
#[derive(Clone, Default)]
pub struct WebhookReceiver {
    token: Option<String>,
    /// `(scheme, credentials)`.
    authorization: Option<(String, String)>,
    limits: Limits,
}

impl fmt::Debug for WebhookReceiver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the secrets.
        f.debug_struct("WebhookReceiver")
            .field("token", &self.token.as_ref().map(|_| "…"))
            .field(
                "authorization",
                &self.authorization.as_ref().map(|(s, _)| s),
            )
            .field("limits", &self.limits)
            .finish()
    }
}

/// Why a push notification was refused; [`WebhookError::status`] is the HTTP status to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WebhookError {
    /// No `X-A2A-Notification-Token`, where a token was registered.
    MissingToken,
    /// The token is not the one registered (or the header is repeated).
    WrongToken,
    /// No `Authorization`, where the config asked for one.
    MissingAuthorization,
    /// The `Authorization` is not the scheme and credentials registered.
    WrongAuthorization,
    /// The body is over the size or depth limit.
    TooLarge(String),
    /// The body is not the JSON of the expected type: why.
    Body(String),
}

impl WebhookError {
    /// The HTTP status to answer: 401 for the token and the credentials, 413 for a body over the
    /// limit, 400 for one that does not decode.
    pub fn status(&self) -> u16 {
        match self {
            WebhookError::MissingToken
            | WebhookError::WrongToken
            | WebhookError::MissingAuthorization
            | WebhookError::WrongAuthorization => 401,
            WebhookError::TooLarge(_) => 413,
            WebhookError::Body(_) => 400,
        }
    }
}

impl fmt::Display for WebhookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WebhookError::MissingToken => {
                f.write_str("the notification has no X-A2A-Notification-Token")
            }
            WebhookError::WrongToken => {
                f.write_str("the notification's token is not the one registered")
            }
            WebhookError::MissingAuthorization => {
                f.write_str("the notification has no Authorization")
            }
            WebhookError::WrongAuthorization => {
                f.write_str("the notification's Authorization is not the one registered")
            }
            WebhookError::TooLarge(reason) | WebhookError::Body(reason) => f.write_str(reason),
        }
    }
}

impl std::error::Error for WebhookError {}

/// Whether `a` and `b` are equal, in time that depends on neither their contents nor their
/// lengths (their SHA-256 digests are compared, in constant time).
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    use aws_lc_rs::digest::{digest, SHA256};
    aws_lc_rs::constant_time::verify_slices_are_equal(
        digest(&SHA256, a).as_ref(),
        digest(&SHA256, b).as_ref(),
    )
    .is_ok()
}

impl WebhookReceiver {
    /// A receiver that checks nothing but the body: add the token (and credentials) you
    /// registered.
    pub fn new() -> Self {
        WebhookReceiver::default()
    }

    /// The token registered in the push-notification config: a notification without it, or with
    /// another, is refused.
    pub fn token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// The config's `authentication` (scheme, credentials): a notification must carry
    /// `Authorization: <scheme> <credentials>` (the scheme compared without case, as HTTP does).
    pub fn authorization(
        mut self,
        scheme: impl Into<String>,
        credentials: impl Into<String>,
    ) -> Self {
        self.authorization = Some((scheme.into(), credentials.into()));
        self
    }

    /// The largest body and deepest nesting taken (default [`Limits::DEFAULT`]).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Checks the headers: the token, then the `Authorization`.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), WebhookError> {
        if let Some(token) = &self.token {
            let mut values = headers.get_all(TOKEN_HEADER).iter();
            let (Some(value), None) = (values.next(), values.next()) else {
                return Err(match headers.contains_key(TOKEN_HEADER) {
                    true => WebhookError::WrongToken,
                    false => WebhookError::MissingToken,
                });
            };
            if !same_secret(value.as_bytes(), token.as_bytes()) {
                return Err(WebhookError::WrongToken);
            }
        }
        if let Some((scheme, credentials)) = &self.authorization {
            let mut values = headers.get_all(http::header::AUTHORIZATION).iter();
            let (Some(value), None) = (values.next(), values.next()) else {
                return Err(match headers.contains_key(http::header::AUTHORIZATION) {
                    true => WebhookError::WrongAuthorization,
                    false => WebhookError::MissingAuthorization,
                });
            };
            let value = value.as_bytes();
            let split = value.iter().position(|&b| b == b' ').unwrap_or(value.len());
            let (their_scheme, rest) = value.split_at(split);
            let their_credentials = rest.strip_prefix(b" ").unwrap_or(rest);
            let scheme_ok = their_scheme.eq_ignore_ascii_case(scheme.as_bytes());
            // Both compared, whatever the first gave, so the time says nothing of which failed.
            let credentials_ok = same_secret(their_credentials, credentials.as_bytes());
            if !(scheme_ok & credentials_ok) {
                return Err(WebhookError::WrongAuthorization);
            }
        }
        Ok(())
    }

    /// Checks the headers, then decodes the body as `T` (the generated `StreamResponse`).
    pub fn receive<T: DeserializeOwned>(
        &self,
        headers: &HeaderMap,
        body: &[u8],
    ) -> Result<T, WebhookError> {
        self.check(headers)?;
        self.decode(body)
    }

    /// Decodes a notification's body as `T`, under the limits (the headers not checked).
    pub fn decode<T: DeserializeOwned>(&self, body: &[u8]) -> Result<T, WebhookError> {
        self.limits.check(body).map_err(WebhookError::TooLarge)?;
        let body = trim(without_bom(body));
        serde_json::from_slice(body).map_err(|e| {
            WebhookError::Body(format!(
                "the notification's body is not a valid `{}` ({e}): {}",
                short_type_name::<T>(),
                excerpt(body)
            ))
        })
    }
}

#[cfg(feature = "server")]
pub use route::webhook_route;

#[cfg(feature = "server")]
mod route {
    use super::WebhookReceiver;
    use axum::body::Body;
    use axum::extract::Request;
    use axum::http::StatusCode;
    use axum::response::{IntoResponse, Response};
    use serde::de::DeserializeOwned;
    use std::future::Future;
    use std::sync::Arc;

    /// The webhook as an axum route (features `server` and `trust`): `POST` only. Each
    /// notification's headers are checked first (401 before the body is read), then its body is
    /// read under the limits (413 over them) and decoded as `T` (400 when it does not decode);
    /// `on_event` gets the decoded event, and the answer (`200 OK`) goes out only once it has
    /// returned, so an agent that sees a 2xx knows the event was taken.
    ///
    /// ```no_run
    /// use a2a_runtime::trust::webhook::{webhook_route, WebhookReceiver};
    /// # type StreamResponse = serde_json::Value; // a2a_types::v1::StreamResponse
    ///
    /// let receiver = WebhookReceiver::new().token("the registered token");
    /// let app: axum::Router = axum::Router::new().route(
    ///     "/webhook",
    ///     webhook_route(receiver, |event: StreamResponse| async move {
    ///         println!("task update: {event}");
    ///     }),
    /// );
    /// ```
    pub fn webhook_route<T, F, Fut>(
        receiver: WebhookReceiver,
        on_event: F,
    ) -> axum::routing::MethodRouter
    where
        T: DeserializeOwned + Send + 'static,
        F: Fn(T) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let shared = Arc::new((receiver, on_event));
        axum::routing::post(move |request: Request| {
            let shared = Arc::clone(&shared);
            async move {
                let (receiver, on_event) = &*shared;
                let (parts, body) = request.into_parts();
                if let Err(e) = receiver.check(&parts.headers) {
                    return refuse(e);
                }
                let limit = receiver.limits.max_body_bytes();
                let bytes = match axum::body::to_bytes(body, limit).await {
                    Ok(bytes) => bytes,
                    Err(_) => {
                        return refuse(super::WebhookError::TooLarge(format!(
                        "the notification's body is over the limit of {limit} bytes (or broke off)"
                    )))
                    }
                };
                match receiver.decode::<T>(&bytes) {
                    Ok(event) => {
                        on_event(event).await;
                        StatusCode::OK.into_response()
                    }
                    Err(e) => refuse(e),
                }
            }
        })
    }

    fn refuse(e: super::WebhookError) -> Response {
        let status = StatusCode::from_u16(e.status()).unwrap_or(StatusCode::BAD_REQUEST);
        let mut response = Response::new(Body::from(e.to_string()));
        *response.status_mut() = status;
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                value.parse().unwrap(),
            );
        }
        map
    }

    #[test]
    fn the_token_and_the_authorization_are_checked_before_the_body() {
        let receiver = WebhookReceiver::new()
            .token("tok")
            .authorization("Bearer", "cred");
        let ok = headers(&[
            ("X-A2A-Notification-Token", "tok"),
            ("authorization", "bearer cred"),
        ]);
        assert_eq!(
            receiver.receive::<Value>(&ok, b" {\"task\":{}} ").unwrap()["task"],
            serde_json::json!({})
        );
        let cases: &[(&[(&str, &str)], WebhookError)] = &[
            (
                &[("authorization", "Bearer cred")],
                WebhookError::MissingToken,
            ),
            (
                &[
                    ("x-a2a-notification-token", "to"),
                    ("authorization", "Bearer cred"),
                ],
                WebhookError::WrongToken,
            ),
            (
                &[
                    ("x-a2a-notification-token", "tok "),
                    ("authorization", "Bearer cred"),
                ],
                WebhookError::WrongToken,
            ),
            (
                &[
                    ("x-a2a-notification-token", "tok"),
                    ("x-a2a-notification-token", "tok"),
                    ("authorization", "Bearer cred"),
                ],
                WebhookError::WrongToken,
            ),
            (
                &[("x-a2a-notification-token", "tok")],
                WebhookError::MissingAuthorization,
            ),
            (
                &[
                    ("x-a2a-notification-token", "tok"),
                    ("authorization", "Basic cred"),
                ],
                WebhookError::WrongAuthorization,
            ),
            (
                &[
                    ("x-a2a-notification-token", "tok"),
                    ("authorization", "Bearer cre"),
                ],
                WebhookError::WrongAuthorization,
            ),
            (
                &[
                    ("x-a2a-notification-token", "tok"),
                    ("authorization", "Bearer"),
                ],
                WebhookError::WrongAuthorization,
            ),
        ];
        for (pairs, expected) in cases {
            // A body that does not decode: the headers are refused first.
            assert_eq!(
                receiver
                    .receive::<Value>(&headers(pairs), b"<html>")
                    .unwrap_err(),
                *expected,
                "{pairs:?}"
            );
        }
    }

    #[test]
    fn a_body_that_does_not_decode_or_is_too_large_is_refused() {
        let receiver = WebhookReceiver::new().limits(Limits::default().with_max_body_bytes(16));
        let e = receiver
            .receive::<Value>(&HeaderMap::new(), b"{\"a\": \"0123456789\"}")
            .unwrap_err();
        assert_eq!(e.status(), 413);
        let e = receiver
            .receive::<Value>(&HeaderMap::new(), b"{nope")
            .unwrap_err();
        assert_eq!(e.status(), 400);
        assert!(e.to_string().contains("not a valid `Value`"), "{e}");
    }
}
