//! The server's door: the caller of every request, before its body is read.

use crate::auth::{challenges, Authenticator, Caller, TenantRefused, Unauthenticated};
use crate::version::Binding;
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::{json, Value};
use std::sync::Arc;

/// The JSON-RPC error code of a request refused for who sent it (401 or 403 on the HTTP
/// response): JSON-RPC's implementation-defined server error. The spec fixes no code for these
/// ("JSON-RPC custom error", §3.3.2) and A2A's own errors take -32001 to -32099.
pub const JSONRPC_ACCESS_DENIED: i64 = -32000;

/// The authenticator and the challenges the card makes.
pub(super) struct Gate {
    authenticator: Option<Arc<dyn Authenticator>>,
    /// `WWW-Authenticate` for a request without credentials, and for one whose were refused.
    missing: Vec<HeaderValue>,
    invalid: Vec<HeaderValue>,
}

impl Gate {
    pub(super) fn new(authenticator: Option<Arc<dyn Authenticator>>, card: &Value) -> Self {
        let values = |invalid| {
            challenges(card, invalid)
                .into_iter()
                // Made of ASCII without control characters (`challenges` keeps only those).
                .filter_map(|c| HeaderValue::from_str(&c).ok())
                .collect()
        };
        Gate {
            authenticator,
            missing: values(false),
            invalid: values(true),
        }
    }

    /// Puts the request's caller in its extensions: the one a tower layer put there already,
    /// else the authenticator's, else the anonymous caller when there is no authenticator.
    /// `Err` is the 401 to answer.
    pub(super) async fn admit(&self, parts: &mut Parts, binding: Binding) -> Result<(), Response> {
        if parts.extensions.get::<Caller>().is_some() {
            return Ok(());
        }
        let Some(authenticator) = &self.authenticator else {
            return Ok(());
        };
        match authenticator.authenticate(parts).await {
            Ok(caller) => {
                parts.extensions.insert(caller);
                Ok(())
            }
            Err(refused) => Err(self.unauthenticated(&refused, parts, binding)),
        }
    }

    fn unauthenticated(
        &self,
        refused: &Unauthenticated,
        parts: &Parts,
        binding: Binding,
    ) -> Response {
        // Once per refusal, at the level a probe should not flood: the reason stays here.
        tracing::info!(
            target: "a2a_runtime::auth",
            path = parts.uri.path(),
            reason = refused.reason(),
            "request refused: not authenticated"
        );
        let mut response = denied(
            StatusCode::UNAUTHORIZED,
            binding,
            "Unauthenticated",
            Value::Null,
        );
        let challenges = match refused.is_invalid() {
            true => &self.invalid,
            false => &self.missing,
        };
        for challenge in challenges {
            response
                .headers_mut()
                .append(header::WWW_AUTHENTICATE, challenge.clone());
        }
        response
    }
}

/// The caller a request was admitted as (the anonymous one when nothing set it).
pub(super) fn caller_of(parts: &mut Parts) -> Caller {
    parts.extensions.remove::<Caller>().unwrap_or_default()
}

/// The 403 for a tenant the caller may not use (`id`: the JSON-RPC request's).
pub(super) fn tenant_refused(refused: &TenantRefused, binding: Binding, id: Value) -> Response {
    tracing::info!(target: "a2a_runtime::auth", reason = %refused, "request refused: tenant");
    denied(StatusCode::FORBIDDEN, binding, "Permission denied", id)
}

/// A refusal in the binding's shape: JSON-RPC, an error response (id `null` when the body was
/// not read); HTTP+JSON, a `google.rpc.Status`.
fn denied(status: StatusCode, binding: Binding, message: &str, id: Value) -> Response {
    if binding == Binding::Grpc {
        return grpc_denied(status, message);
    }
    let body = match binding {
        Binding::HttpJson => json!({"error": {
            "code": status.as_u16(),
            "status": match status {
                StatusCode::UNAUTHORIZED => "UNAUTHENTICATED",
                _ => "PERMISSION_DENIED",
            },
            "message": message,
        }}),
        _ => json!({"jsonrpc": "2.0", "id": id, "error": {
            "code": JSONRPC_ACCESS_DENIED,
            "message": message,
        }}),
    };
    let content_type = match binding {
        Binding::HttpJson => crate::rest::CONTENT_TYPE,
        _ => "application/json",
    };
    let mut response = Response::new(axum::body::Body::from(body.to_string()));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// A refusal as gRPC answers one: a trailers-only response (HTTP 200, `application/grpc`) whose
/// `grpc-status` is `UNAUTHENTICATED` (16) for a 401 and `PERMISSION_DENIED` (7) for a 403, with
/// the message (plain ASCII here, which `grpc-message` takes unescaped).
fn grpc_denied(status: StatusCode, message: &str) -> Response {
    let code = match status {
        StatusCode::UNAUTHORIZED => "16",
        _ => "7",
    };
    let mut response = Response::new(axum::body::Body::empty());
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/grpc"),
    );
    headers.insert("grpc-status", HeaderValue::from_static(code));
    if let Ok(message) = HeaderValue::from_str(message) {
        headers.insert("grpc-message", message);
    }
    response
}
