//! The TCK's system under test: an [`AgentExecutor`] that does what each scenario of
//! `a2a-tck/scenarios/*.feature` says for a message whose id starts with its prefix, and the card
//! that declares streaming, push notifications and the extended card over JSON-RPC and HTTP+JSON.
//! No lifecycle of its own: ids, history, blocking, streams, cancel, subscriptions and push
//! delivery are the request handler's.

mod cluster;

pub use cluster::ClusterExecutor;

use a2a_agent::{text_part, AgentExecutor, ExecutorError, TaskContext, TaskUpdater};
use a2a_types::rt::auth::{Caller, StaticTokens};
use a2a_types::v1::{
    AgentCapabilities, AgentCard, AgentExtension, AgentInterface, AgentProvider, AgentSkill,
    Artifact, HTTPAuthSecurityScheme, Part, PartContent, SecurityRequirement, SecurityScheme,
    StringList,
};
use std::time::Duration;

/// The streaming timeout of the TCK's scenarios: "wait for 2x streaming timeout" waits twice it.
pub const STREAMING_TIMEOUT: Duration = Duration::from_secs(2);

/// The scenarios, by message id prefix.
pub struct TckExecutor;

fn file_part() -> Part {
    Part {
        content: PartContent::Raw(b"tck".as_slice().into()),
        filename: Some("output.txt".into()),
        media_type: Some("text/plain".into()),
        ..Default::default()
    }
}

impl AgentExecutor for TckExecutor {
    async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        let id = cx
            .message
            .as_ref()
            .map(|m| m.message_id.clone())
            .unwrap_or_default();
        let text = |t: &str| vec![text_part(t)];
        // Longer prefixes first: `tck-artifact-file-url` before `tck-artifact-file`.
        match () {
            _ if id.starts_with("tck-message-response") => {
                task.reply(task.text_message("Direct message response"))
                    .await
            }
            _ if id.starts_with("tck-input-required") => task.require_input(None).await,
            _ if id.starts_with("tck-reject-task") => {
                task.reject(Some(task.text_message("rejected"))).await
            }
            _ if id.starts_with("tck-complete-task") => {
                task.complete(Some(task.text_message("Hello from TCK")))
                    .await
            }
            _ if id.starts_with("tck-artifact-text") => {
                task.add_artifact("", text("Generated text content"))
                    .await?;
                task.complete(None).await
            }
            _ if id.starts_with("tck-artifact-file-url") => {
                let part = Part {
                    content: PartContent::Url("https://example.com/output.txt".into()),
                    filename: Some("output.txt".into()),
                    media_type: Some("text/plain".into()),
                    ..Default::default()
                };
                task.add_artifact("", vec![part]).await?;
                task.complete(None).await
            }
            _ if id.starts_with("tck-artifact-file") => {
                task.add_artifact("", vec![file_part()]).await?;
                task.complete(None).await
            }
            _ if id.starts_with("tck-artifact-data") => {
                let data = serde_json::json!({"key": "value", "count": 42});
                let part = Part {
                    content: PartContent::Data(data),
                    ..Default::default()
                };
                task.add_artifact("", vec![part]).await?;
                task.complete(None).await
            }
            _ if id.starts_with("tck-stream-artifact-chunked") => {
                task.start_work(None).await?;
                let chunk = |t: &str| Artifact {
                    artifact_id: "chunked".into(),
                    parts: vec![text_part(t)],
                    ..Default::default()
                };
                task.artifact(chunk("chunk-1 "), false, false).await?;
                task.artifact(chunk("chunk-2"), true, true).await?;
                task.complete(None).await
            }
            _ if id.starts_with("tck-stream-artifact-text") => {
                streamed(&task, text("Streamed text content")).await
            }
            _ if id.starts_with("tck-stream-artifact-file") => {
                streamed(&task, vec![file_part()]).await
            }
            _ if id.starts_with("tck-stream-ordering-001") => {
                streamed(&task, text("Ordered output")).await
            }
            _ if id.starts_with("tck-stream-001") => {
                streamed(&task, text("Stream hello from TCK")).await
            }
            _ if id.starts_with("tck-stream-002") => task.complete(None).await,
            _ if id.starts_with("tck-stream-003") => {
                streamed(&task, text("Stream task lifecycle")).await
            }
            // Not a scenario of the TCK: bench/scale-bench.sh's k-th chunk, N chunks of one
            // artifact streamed with `append` (`bench-chunks-N`).
            _ if id.starts_with("bench-chunks-") => {
                let n: usize = id["bench-chunks-".len()..].parse().unwrap_or(1);
                task.start_work(None).await?;
                for i in 0..n {
                    let chunk = Artifact {
                        artifact_id: "chunks".into(),
                        parts: vec![text_part(&format!("chunk {i} "))],
                        ..Default::default()
                    };
                    task.artifact(chunk, i > 0, i + 1 == n).await?;
                }
                task.complete(None).await
            }
            _ if id.starts_with("test-resubscribe-message-id") => {
                task.start_work(None).await?;
                tokio::time::sleep(STREAMING_TIMEOUT * 2).await;
                task.complete(None).await
            }
            _ => {
                let reply = format!("Unhandled messageId prefix: {id}");
                task.complete(Some(task.text_message(&reply))).await
            }
        }
    }
}

/// `working`, one artifact of these parts, `completed`: the streaming scenarios' shape.
async fn streamed(task: &TaskUpdater, parts: Vec<Part>) -> Result<(), ExecutorError> {
    task.start_work(None).await?;
    task.add_artifact("", parts).await?;
    task.complete(None).await
}

/// The card at `base` (`http://127.0.0.1:PORT`): JSON-RPC at `/`, HTTP+JSON below it and gRPC on
/// the same port (its URL `127.0.0.1:PORT`, the target form gRPC clients dial), in 1.0;
/// streaming, push notifications and the extended card declared.
pub fn card(base: &str, extended: bool) -> AgentCard {
    let interface = |binding: &str| AgentInterface {
        url: format!("{}/", base.trim_end_matches('/')),
        protocol_binding: binding.into(),
        protocol_version: "1.0".into(),
        tenant: None,
    };
    AgentCard {
        name: match extended {
            true => "a2a-codegen TCK agent (extended)".into(),
            false => "a2a-codegen TCK agent".into(),
        },
        description: "The system under test of the A2A TCK, on a2a-agent's request handler".into(),
        supported_interfaces: vec![
            interface("JSONRPC"),
            interface("HTTP+JSON"),
            AgentInterface {
                url: grpc_target(base),
                ..interface("GRPC")
            },
        ],
        provider: Some(AgentProvider {
            organization: "a2a-codegen".into(),
            url: "https://example.invalid/a2a-codegen".into(),
        }),
        version: "0.1.0".into(),
        capabilities: AgentCapabilities {
            streaming: Some(true),
            push_notifications: Some(true),
            extended_agent_card: Some(true),
            ..Default::default()
        },
        default_input_modes: vec!["text".into()],
        default_output_modes: vec!["text".into()],
        skills: vec![AgentSkill {
            id: "tck".into(),
            name: "TCK conformance".into(),
            description: "Does what the TCK's scenarios ask, by message id prefix".into(),
            tags: vec!["tck".into()],
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// The gRPC target of `base`: its authority (`127.0.0.1:PORT`), without scheme or path.
fn grpc_target(base: &str) -> String {
    let rest = base.split_once("://").map_or(base, |(_, rest)| rest);
    rest.split('/').next().unwrap_or(rest).to_owned()
}

/// The extension the bare card (`--card bare`) requires: the one the TCK's CORE-CAP-004 looks for.
pub const REQUIRED_EXTENSION: &str = "urn:a2a:tck:required-extension";

/// `card` declaring no optional capability (no streaming, push notifications or extended card)
/// and requiring [`REQUIRED_EXTENSION`]: the card of a tck-agent started with `--card bare`, for
/// the TCK's capability checks (CORE-CAP-001..004), which the full card skips.
pub fn bare(mut card: AgentCard) -> AgentCard {
    card.capabilities = AgentCapabilities {
        extensions: vec![AgentExtension {
            uri: Some(REQUIRED_EXTENSION.into()),
            description: Some("Required of every caller: the TCK checks that it is".into()),
            required: Some(true),
            ..Default::default()
        }],
        ..Default::default()
    };
    card
}

/// `card` declaring an HTTP bearer scheme (`bearer`) and requiring it: the card of a tck-agent
/// started with `--auth-tokens`.
pub fn secured(mut card: AgentCard) -> AgentCard {
    card.security_schemes.insert(
        "bearer".into(),
        SecurityScheme::HttpAuthSecurityScheme(HTTPAuthSecurityScheme {
            scheme: "Bearer".into(),
            description: Some("A token given to the caller out of band".into()),
            ..Default::default()
        }),
    );
    card.security_requirements = vec![SecurityRequirement {
        schemes: [("bearer".to_owned(), StringList::default())].into(),
    }];
    card
}

/// The callers of an `--auth-tokens` file: a JSON object from bearer token to
/// `{"caller": ID}`, optionally with `"tenants": [..]` (without it, the caller uses the default
/// tenant only, the one a request without a tenant names).
///
/// ```
/// let tokens = tck_agent::auth_tokens(r#"{"t-alice": {"caller": "alice"},
///     "t-bob": {"caller": "bob", "tenants": ["acme"]}}"#).unwrap();
/// assert_eq!(tokens.len(), 2);
/// assert!(tck_agent::auth_tokens(r#"{"t": {"tenants": []}}"#).is_err());
/// ```
pub fn auth_tokens(json: &str) -> Result<StaticTokens, String> {
    let entries: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(json).map_err(|e| format!("not a JSON object of tokens: {e}"))?;
    let mut tokens = StaticTokens::new();
    for (token, entry) in entries {
        let at = |what: &str| format!("token entry {:?}: {what}", redact(&token));
        let caller = entry
            .get("caller")
            .and_then(serde_json::Value::as_str)
            .filter(|c| !c.is_empty())
            .ok_or_else(|| at("no \"caller\" string"))?;
        let mut caller = Caller::new(caller);
        if let Some(tenants) = entry.get("tenants") {
            let tenants = tenants
                .as_array()
                .and_then(|all| all.iter().map(|t| t.as_str()).collect::<Option<Vec<_>>>())
                .ok_or_else(|| at("\"tenants\" is not an array of strings"))?;
            caller = caller.with_tenants(tenants);
        }
        if token.is_empty() {
            return Err(at("an empty token"));
        }
        tokens = tokens.bearer(token, caller);
    }
    Ok(tokens)
}

/// A token's first characters, for an error message that must not print it whole.
fn redact(token: &str) -> String {
    let shown: String = token.chars().take(3).collect();
    format!("{shown}…")
}
