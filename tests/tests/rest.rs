//! The HTTP+JSON (REST) binding of A2A v1: every method's request through `encode_call`
//! and back through `decode_rest_request` (with and without a tenant), query parameters of every
//! kind, the refusals (404, 405, 400 naming the parameter), and replies: results, errors named by
//! their ErrorInfo reason for every row of the table, the catch-all for the rest, custom errors,
//! problem+json and non-JSON bodies, and streams.

use a2a_types::rt::client::{HttpReply, HttpRequest};
use a2a_types::rt::rest::rest_reason;
use a2a_types::rt::Binding;
use a2a_types::rt::Method;
use a2a_types::v1::{
    decode_rest_request, encode_call, encode_rest_custom_error, encode_rest_error,
    encode_rest_event, encode_rest_result, method, A2aError, CallError, Decoder, Request,
    StreamResponse, Task, TaskState, ERROR_TABLE,
};
use a2a_types::AgentError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

/// A billing agent's own errors, sent over REST.
#[derive(Debug, PartialEq, Clone, AgentError)]
pub enum BillingError {
    /// The account used up its quota.
    #[a2a(code = -32050, grpc = "RESOURCE_EXHAUSTED", http = 429)]
    QuotaExceeded { retry_after_secs: u32 },
}

/// Sends `params` of method `M` through the client encoder and the server decoder.
fn round_trip<M>(params: Value) -> (HttpRequest, Request)
where
    M: a2a_types::rt::rest::RestMethod,
    M::Params: Serialize + DeserializeOwned,
{
    let params: M::Params = serde_json::from_value(params).unwrap();
    let request =
        encode_call::<M>(Binding::HttpJson, &a2a_types::rt::RequestId::Null, &params).unwrap();
    let (path, query) = request.path.split_once('?').unwrap_or((&request.path, ""));
    let body = request.body.clone().unwrap_or_default();
    let decoded = decode_rest_request(request.verb, path, query, &body)
        .unwrap_or_else(|e| panic!("{} {}: {:?}", request.verb, request.path, e.response()));
    (request, decoded)
}

macro_rules! check_round_trip {
    ($m:ident, $params:expr, $verb:expr, $path:expr) => {{
        let params = $params;
        let (request, decoded) = round_trip::<method::$m>(params.clone());
        assert_eq!(
            (request.verb, request.path.as_str()),
            ($verb, $path.as_str()),
            "{}",
            stringify!($m)
        );
        let expected: <method::$m as Method>::Params = serde_json::from_value(params).unwrap();
        assert_eq!(decoded, Request::$m(expected), "{}", stringify!($m));
    }};
}

#[test]
fn every_method_encodes_and_decodes_over_rest_with_and_without_a_tenant() {
    let message = json!({"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]});
    for tenant in [None, Some("acme corp")] {
        let t = |mut v: Value| {
            if let Some(tenant) = tenant {
                v["tenant"] = json!(tenant);
            }
            v
        };
        let p = |path: &str| match tenant {
            Some(_) => format!("/acme%20corp{path}"),
            None => path.to_string(),
        };
        check_round_trip!(
            SendMessage,
            t(json!({"message": message})),
            "POST",
            p("/message:send")
        );
        check_round_trip!(
            SendStreamingMessage,
            t(json!({"message": message})),
            "POST",
            p("/message:stream")
        );
        check_round_trip!(
            GetTask,
            t(json!({"id": "t/1", "historyLength": 3})),
            "GET",
            p("/tasks/t%2F1?historyLength=3")
        );
        check_round_trip!(
            ListTasks,
            t(json!({"contextId": "c-1", "pageSize": 5})),
            "GET",
            p("/tasks?contextId=c-1&pageSize=5")
        );
        check_round_trip!(
            CancelTask,
            t(json!({"id": "t-1", "metadata": {"why": "done"}})),
            "POST",
            p("/tasks/t-1:cancel")
        );
        check_round_trip!(
            SubscribeToTask,
            t(json!({"id": "t-1"})),
            "GET",
            p("/tasks/t-1:subscribe")
        );
        check_round_trip!(
            CreateTaskPushNotificationConfig,
            t(json!({"taskId": "t-1", "url": "https://hook.example/a"})),
            "POST",
            p("/tasks/t-1/pushNotificationConfigs")
        );
        check_round_trip!(
            GetTaskPushNotificationConfig,
            t(json!({"taskId": "t-1", "id": "c-9"})),
            "GET",
            p("/tasks/t-1/pushNotificationConfigs/c-9")
        );
        check_round_trip!(
            ListTaskPushNotificationConfigs,
            t(json!({"taskId": "t-1", "pageSize": 2, "pageToken": "n+1"})),
            "GET",
            p("/tasks/t-1/pushNotificationConfigs?pageSize=2&pageToken=n%2B1")
        );
        check_round_trip!(
            DeleteTaskPushNotificationConfig,
            t(json!({"taskId": "t-1", "id": "c-9"})),
            "DELETE",
            p("/tasks/t-1/pushNotificationConfigs/c-9")
        );
        check_round_trip!(
            GetExtendedAgentCard,
            t(json!({})),
            "GET",
            p("/extendedAgentCard")
        );
    }
}

#[test]
fn query_parameters_of_every_kind_read_into_the_params() {
    let query = "contextId=c%201&status=TASK_STATE_WORKING&pageSize=7&pageToken=x&historyLength=2\
                 &statusTimestampAfter=2025-01-02T03%3A04%3A05Z&includeArtifacts=true&unknown=1";
    let Request::ListTasks(p) = decode_rest_request("GET", "/tasks", query, b"").unwrap() else {
        panic!("not ListTasks");
    };
    let p = serde_json::to_value(&p).unwrap();
    assert_eq!(
        p,
        json!({"contextId": "c 1", "status": "TASK_STATE_WORKING", "pageSize": 7, "pageToken": "x",
               "historyLength": 2, "statusTimestampAfter": "2025-01-02T03:04:05Z",
               "includeArtifacts": true})
    );
    // The proto's snake_case names are read too, and the enum by number.
    let Request::ListTasks(p) =
        decode_rest_request("GET", "/tasks", "context_id=c&status=3", b"").unwrap()
    else {
        panic!("not ListTasks");
    };
    assert_eq!(p.context_id.as_deref(), Some("c"));
    assert_eq!(p.status, Some(TaskState::from_number(3)));
}

#[test]
fn refusals_say_why_with_the_http_status_the_binding_gives() {
    let status = |verb: &str, path: &str, query: &str, body: &[u8]| {
        let e = decode_rest_request(verb, path, query, body).unwrap_err();
        let response = e.response();
        let body: Value = serde_json::from_slice(&response.body).unwrap();
        (response.status, body)
    };
    let (s, body) = status("GET", "/nowhere", "", b"");
    assert_eq!(s, 404);
    assert_eq!(body["error"]["code"], 404);
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("/nowhere"));
    let (s, _) = status("DELETE", "/tasks/t-1", "", b"");
    assert_eq!(s, 405);
    let (s, body) = status("GET", "/tasks", "pageSize=many", b"");
    assert_eq!(s, 400);
    // The ErrorInfo naming the error (INVALID_PARAMS, as a2a-sdk names it), then the BadRequest.
    let details = &body["error"]["details"];
    assert_eq!(details[0]["reason"], "INVALID_PARAMS", "{body}");
    let violation = &details[1]["fieldViolations"][0];
    assert_eq!(violation["field"], "pageSize", "{body}");
    let (s, body) = status("GET", "/tasks", "includeArtifacts=yes", b"");
    assert_eq!(s, 400, "{body}");
    // What the method cannot run without, as over JSON-RPC.
    let (s, body) = status(
        "POST",
        "/message:send",
        "",
        br#"{"message": {"role": "ROLE_USER"}}"#,
    );
    assert_eq!(s, 400);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("message.messageId"),
        "{body}"
    );
    let (s, _) = status("POST", "/message:send", "", b"{not json");
    assert_eq!(s, 400);
}

/// A body that lives as long as the test.
fn leak(body: String) -> &'static [u8] {
    Box::leak(body.into_bytes().into_boxed_slice())
}

fn reply(status: u16, content_type: &'static str, body: &'static [u8]) -> HttpReply<'static> {
    HttpReply {
        status,
        content_type: Some(content_type),
        body,
    }
}

#[test]
fn success_replies_are_the_bare_result() {
    let task: Task = Decoder::new()
        .binding(Binding::HttpJson)
        .decode_http::<Task>(&reply(
            200,
            "application/json",
            br#"{"id": "t-1", "status": {"state": "TASK_STATE_WORKING"}, "extra": 1}"#,
        ))
        .unwrap();
    assert_eq!(task.status.state, TaskState::Working);
    // Delete returns Empty: `{}` or no body at all.
    for body in [&b"{}"[..], b"", b"  \n"] {
        let r = HttpReply {
            status: 200,
            content_type: None,
            body,
        };
        Decoder::new().binding(Binding::HttpJson).decode_http::<<method::DeleteTaskPushNotificationConfig as a2a_types::rt::Method>::Result>(&r).unwrap();
    }
    let e = Decoder::new()
        .binding(Binding::HttpJson)
        .decode_http::<Task>(&reply(200, "application/json", b""))
        .unwrap_err();
    assert!(
        matches!(&e, CallError::Malformed(m) if m.reason().contains("empty body")),
        "{e:?}"
    );
}

/// An HTTP 200 whose body is a `google.rpc.Status` error object and nothing else is the error it
/// names, not an empty `Task` (what a2a-sdk 1.3.0 makes of it, losing the error; the REST
/// differential's allow-list says so). A body with any other member, or an `error` member that is
/// not a Status, is still a result.
#[test]
fn a_status_error_object_at_200_is_the_error_it_names() {
    let decoder = Decoder::new().binding(Binding::HttpJson);
    let named = br#"{"error": {"code": 404, "status": "NOT_FOUND", "message": "no task t-9",
        "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                     "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}]}}"#;
    for status in [200, 201] {
        let e = decoder
            .decode_http::<Task>(&reply(status, "application/json", named))
            .unwrap_err();
        let CallError::Agent(e) = e else {
            panic!("{e:?}")
        };
        assert_eq!((e.name(), e.message()), ("TaskNotFound", "no task t-9"));
    }
    // `decode` reads a body alone as a 200 reply: the same.
    assert!(matches!(
        decoder.decode::<Task>(named),
        Err(CallError::Agent(A2aError::TaskNotFound { .. }))
    ));
    // No reason: the catch-all, with the Status's own error code (else 500), not the 200.
    for (body, want) in [
        (
            &br#" {"error": {"code": 503, "message": "busy"}} "#[..],
            503,
        ),
        (br#"{"error": {"message": "no code"}}"#, 500),
        (
            br#"{"error": {"code": 200, "message": "not an error code"}}"#,
            500,
        ),
    ] {
        match decoder.decode_http::<Task>(&reply(200, "application/json", body)) {
            Err(CallError::Agent(A2aError::Other { code, data, .. })) => {
                assert_eq!(code, want);
                assert_eq!(data, Some(serde_json::from_slice::<Value>(body).unwrap()));
            }
            other => panic!("{other:?}"),
        }
    }
    // Anything more (or less) than a Status is a result, decoded as ever.
    for body in [
        &br#"{"error": {"code": 404}, "id": "t-1"}"#[..],
        br#"{"id": "t-1", "error": {"code": 404}}"#,
        br#"{"error": {"code": 404, "reason": "not a Status member"}}"#,
        br#"{"error": {}}"#,
        br#"{"error": "boom"}"#,
    ] {
        let task = decoder
            .decode_http::<Task>(&reply(200, "application/json", body))
            .unwrap_or_else(|e| panic!("{}: {e:?}", String::from_utf8_lossy(body)));
        assert!(task.id.is_empty() || task.id == "t-1");
    }
}

#[test]
fn every_error_row_with_a_reason_is_named_by_it_and_round_trips() {
    let mut named = 0;
    for row in ERROR_TABLE.iter() {
        let error = A2aError::from_code(row.code, Some("why".into()), None);
        let response = encode_rest_error(&error);
        assert_eq!(response.status, row.http, "{}", row.name);
        let body: &'static [u8] = Box::leak(response.body.into_boxed_slice());
        let decoded = Decoder::new()
            .binding(Binding::HttpJson)
            .decode_http::<Task>(&reply(response.status, "application/json", body))
            .unwrap_err();
        match rest_reason(row) {
            Some(reason) => {
                named += 1;
                let CallError::Agent(decoded) = decoded else {
                    panic!("{}: {decoded:?}", row.name)
                };
                assert_eq!(decoded.name(), row.name);
                assert_eq!(decoded.message(), "why");
                assert_eq!(decoded.details()[0].reason(), Some(reason));
            }
            // The parse error has no reason: the catch-all, by HTTP status.
            None => {
                let CallError::Agent(A2aError::Other { code, .. }) = decoded else {
                    panic!("{}: {decoded:?}", row.name)
                };
                assert_eq!(code, i64::from(row.http));
            }
        }
    }
    // The nine A2A rows, and the four standard rows a2a-sdk names (`INVALID_PARAMS`, ...).
    assert_eq!(named, 13);
}

/// Found by the REST differential test (tests/differential/py/rest.py): a2a-sdk's server sends
/// its standard errors with the reasons `INVALID_PARAMS`, `INVALID_REQUEST`, `METHOD_NOT_FOUND`
/// and `INTERNAL_ERROR`, and its client names them; a2a-types read them as the catch-all.
#[test]
fn the_standard_errors_are_named_by_the_reasons_a2a_sdk_writes() {
    for (reason, http, name) in [
        ("INVALID_PARAMS", 400, "InvalidParams"),
        ("INVALID_REQUEST", 400, "InvalidRequest"),
        ("METHOD_NOT_FOUND", 404, "MethodNotFound"),
        ("INTERNAL_ERROR", 500, "Internal"),
    ] {
        let body = json!({"error": {"code": http, "status": "X", "message": "m", "details": [
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": reason,
             "domain": "a2a-protocol.org", "metadata": {}}]}})
        .to_string();
        let e = Decoder::new()
            .binding(Binding::HttpJson)
            .decode_http::<a2a_types::v1::SendMessageResponse>(&reply(
                http,
                "application/json",
                leak(body),
            ))
            .unwrap_err();
        let CallError::Agent(e) = e else {
            panic!("{reason}: {e:?}")
        };
        assert_eq!((e.name(), e.message()), (name, "m"), "{reason}");
    }
    // And our server writes them, so a2a-sdk's client names ours.
    let refused = decode_rest_request("GET", "/tasks", "pageSize=many", b"").unwrap_err();
    let body: Value = serde_json::from_slice(&refused.response().body).unwrap();
    assert_eq!(
        body["error"]["details"][0]["reason"], "INVALID_PARAMS",
        "{body}"
    );
}

/// Found by the REST differential test: an ErrorInfo without a domain (absent, empty, not a
/// string) names A2A's error, as a2a-sdk reads it; another domain's reason stays that domain's.
#[test]
fn an_error_info_without_a_domain_is_read_as_a2a_s() {
    let with_domain = |domain: Value| {
        let mut info = json!({"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                              "reason": "TASK_NOT_FOUND"});
        if !domain.is_null() {
            info["domain"] = domain;
        }
        let body = json!({"error": {"code": 404, "message": "gone", "details": [info]}});
        Decoder::new()
            .binding(Binding::HttpJson)
            .decode_http::<Task>(&reply(404, "application/json", leak(body.to_string())))
            .unwrap_err()
    };
    for domain in [Value::Null, json!(""), json!(7)] {
        let e = with_domain(domain.clone());
        assert!(
            matches!(&e, CallError::Agent(A2aError::TaskNotFound { .. })),
            "{domain}: {e:?}"
        );
    }
    let e = with_domain(json!("billing.example.com"));
    let CallError::Agent(e) = e else {
        panic!("{e:?}")
    };
    assert_eq!((e.name(), e.code()), ("Other", 404));
    assert_eq!(e.details()[0].reason(), Some("TASK_NOT_FOUND"));
}

/// Found by the REST differential test: a body starting with a UTF-8 BOM reads as without it
/// (as a2a-sdk reads it, and as the JSON-RPC side does), results and errors alike.
#[test]
fn a_leading_bom_is_ignored_in_rest_bodies() {
    let task = Decoder::new()
        .binding(Binding::HttpJson)
        .decode_http::<Task>(&reply(
            200,
            "application/json",
            b"\xEF\xBB\xBF {\"id\": \"t-1\", \"status\": {}}",
        ))
        .unwrap();
    assert_eq!(task.id, "t-1");
    let e = Decoder::new().binding(Binding::HttpJson).decode_http::<Task>(&reply(
        404,
        "application/json",
        b"\xEF\xBB\xBF{\"error\": {\"code\": 404, \"details\": [{\"@type\": \"type.googleapis.com/google.rpc.ErrorInfo\", \"reason\": \"TASK_NOT_FOUND\", \"domain\": \"a2a-protocol.org\"}]}}",
    ))
    .unwrap_err();
    assert!(
        matches!(e, CallError::Agent(A2aError::TaskNotFound { .. })),
        "{e:?}"
    );
}

/// A bare `google.rpc.Status` (no `error` wrapper, as grpc-gateway writes it) is read too.
#[test]
fn a_bare_status_names_its_error() {
    let body = br#"{"code": 5, "message": "no task t-9", "details": [
        {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND",
         "domain": "a2a-protocol.org"}]}"#;
    let e = Decoder::new()
        .binding(Binding::HttpJson)
        .decode_http::<Task>(&reply(404, "application/json", body))
        .unwrap_err();
    let CallError::Agent(e) = e else {
        panic!("{e:?}")
    };
    assert_eq!((e.name(), e.message()), ("TaskNotFound", "no task t-9"));
}

/// Found by the REST differential test: an SSE event with empty data (`data:` and a blank line)
/// is skipped, as a2a-sdk's reader skips it, not decoded as a malformed result. And an `error`
/// event no reason names is the catch-all with the Status's own HTTP code (else 500), not the
/// stream's 200.
#[test]
fn rest_streams_skip_empty_events_and_give_error_events_their_own_status() {
    let body = b"data:\n\ndata: {\"task\": {\"id\": \"t-1\"}}\n\ndata:\n\n\
        event: error\ndata: {\"error\": {\"code\": 503, \"message\": \"busy\"}}\n\n\
        event: error\ndata: {\"error\": {\"message\": \"no code\"}}\n\n";
    let mut decoder = Decoder::new()
        .binding(Binding::HttpJson)
        .stream::<StreamResponse>();
    let items = decoder.feed(body);
    decoder.finish().unwrap();
    assert_eq!(items.len(), 3, "{items:?}");
    assert!(matches!(&items[0], Ok(StreamResponse::Task(t)) if t.id == "t-1"));
    let codes: Vec<_> = items[1..]
        .iter()
        .map(|item| match item {
            Err(CallError::Agent(A2aError::Other { code, .. })) => *code,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(codes, [503, 500]);
}

#[test]
fn errors_without_a_known_reason_are_the_catch_all_keeping_everything() {
    // No ErrorInfo: the HTTP status is the code, the Status is the data.
    let body =
        br#"{"error": {"code": 404, "status": "NOT_FOUND", "message": "gone", "details": []}}"#;
    let e = Decoder::new()
        .binding(Binding::HttpJson)
        .decode_http::<Task>(&reply(404, "application/json", body))
        .unwrap_err();
    let CallError::Agent(A2aError::Other {
        code,
        message,
        data,
    }) = e
    else {
        panic!("{e:?}")
    };
    assert_eq!((code, message.as_str()), (404, "gone"));
    assert_eq!(data.unwrap()["error"]["status"], "NOT_FOUND");
    // An unknown reason: the same, with the details readable.
    let body = br#"{"error": {"code": 409, "status": "ABORTED", "message": "later",
        "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "SOMETHING_NEW",
                     "domain": "a2a-protocol.org"}]}}"#;
    let e = Decoder::new()
        .binding(Binding::HttpJson)
        .decode_http::<Task>(&reply(409, "application/json", body))
        .unwrap_err();
    let CallError::Agent(e) = e else {
        panic!("{e:?}")
    };
    assert_eq!(e.code(), 409);
    assert_eq!(e.details()[0].reason(), Some("SOMETHING_NEW"));
    // The spec's own problem+json bodies (§6.4).
    let body =
        br#"{"type": "https://a2a-protocol.org/errors/task-not-found", "title": "Task not found",
        "status": 404, "detail": "no task t-9"}"#;
    let e = Decoder::new()
        .binding(Binding::HttpJson)
        .decode_http::<Task>(&reply(404, "application/problem+json", body))
        .unwrap_err();
    let CallError::Agent(A2aError::Other { code, message, .. }) = e else {
        panic!("{e:?}")
    };
    assert_eq!((code, message.as_str()), (404, "no task t-9"));
    // A proxy's HTML page: malformed, its status kept.
    let e = Decoder::new()
        .binding(Binding::HttpJson)
        .decode_http::<Task>(&reply(502, "text/html", b"<html>Bad gateway</html>"))
        .unwrap_err();
    let CallError::Malformed(m) = e else {
        panic!("{e:?}")
    };
    assert_eq!(m.http_status(), Some(502));
    assert!(
        m.reason().contains("not JSON") && m.reason().contains("text/html"),
        "{}",
        m.reason()
    );
}

#[test]
fn custom_errors_travel_over_rest_by_their_reason() {
    let error = BillingError::QuotaExceeded {
        retry_after_secs: 30,
    };
    let response = encode_rest_custom_error(&error, Some("slow down"));
    assert_eq!(response.status, 429);
    let body: &'static [u8] = Box::leak(response.body.into_boxed_slice());
    let decoded = Decoder::new()
        .binding(Binding::HttpJson)
        .custom_errors::<BillingError>()
        .decode_http::<Task>(&reply(429, "application/json", body))
        .unwrap_err();
    assert_eq!(
        decoded,
        CallError::Custom {
            error,
            message: "slow down".into()
        }
    );
}

#[test]
fn rest_streams_decode_in_any_chunking_and_carry_errors_as_events() {
    let task: Task =
        serde_json::from_value(json!({"id": "t-1", "status": {"state": "TASK_STATE_WORKING"}}))
            .unwrap();
    let mut body =
        encode_rest_event::<method::SendStreamingMessage>(Ok(&StreamResponse::Task(task.clone())))
            .to_bytes();
    body.extend(
        encode_rest_event::<method::SendStreamingMessage>(Err(&A2aError::from_code(
            -32001, None, None,
        )))
        .to_bytes(),
    );
    for size in [1, 2, 3, 7, body.len()] {
        let mut decoder = Decoder::new()
            .binding(Binding::HttpJson)
            .stream::<StreamResponse>();
        let items: Vec<_> = body.chunks(size).flat_map(|c| decoder.feed(c)).collect();
        decoder.finish().unwrap();
        assert_eq!(items.len(), 2, "chunks of {size}");
        assert_eq!(items[0], Ok(StreamResponse::Task(task.clone())));
        assert!(
            matches!(
                &items[1],
                Err(CallError::Agent(A2aError::TaskNotFound { .. }))
            ),
            "{:?}",
            items[1]
        );
    }
    let ok = encode_rest_result::<method::GetTask>(&task);
    assert_eq!(ok.status, 200);
}

proptest::proptest! {
    /// Whatever arrives, the server side answers with a typed request or a rejection, and the
    /// client side with a result, a typed error or a malformed reply: never a panic.
    #[test]
    fn no_input_panics_either_side(
        verb in "(GET|POST|DELETE|PUT|[A-Z]{0,6})",
        path in "(/[a-zA-Z0-9:%{}=*._~-]{0,12}){0,5}",
        query in "[a-zA-Z0-9=&%+,_.-]{0,40}",
        body in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
        status in 100u16..600,
    ) {
        let _ = decode_rest_request(&verb, &path, &query, &body);
        let r = HttpReply { status, content_type: None, body: &body };
        let _ = Decoder::new().binding(Binding::HttpJson).decode_http::<Task>(&r);
        let mut decoder = Decoder::new().binding(Binding::HttpJson).stream::<StreamResponse>();
        let _ = decoder.feed(&body);
        let _ = decoder.finish();
    }
}

#[test]
fn paths_match_their_templates_segment_by_segment() {
    use a2a_types::rt::rest::match_path;
    let caps = |t: &str, p: &str| match_path(t, p);
    assert_eq!(
        caps(
            "/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
            "/tasks/a%2Fb/pushNotificationConfigs/c"
        ),
        Some(vec![
            ("task_id".into(), "a/b".into()),
            ("id".into(), "c".into())
        ])
    );
    assert_eq!(
        caps("/tasks/{id=*}:cancel", "/tasks/t-1:cancel"),
        Some(vec![("id".into(), "t-1".into())])
    );
    assert_eq!(caps("/tasks/{id=*}", "/tasks/t-1:cancel"), None);
    assert_eq!(caps("/tasks/{id=*}", "/tasks/"), None, "an empty variable");
    assert_eq!(caps("/tasks/{id=*}", "/tasks/a/b"), None);
    assert_eq!(caps("/tasks/{id=*}", "/tasks/%zz"), None, "a broken escape");
    assert_eq!(caps("/message:send", "/message:send"), Some(vec![]));
}

/// Regression: a `*` body carried the fields the path binds too (`tenant`, a cancel's `id`, a push
/// config's `taskId`); google.api.http's `*` is every field *not* bound by the path.
#[test]
fn a_star_body_leaves_out_the_fields_the_path_binds() {
    let body =
        |request: HttpRequest| -> Value { serde_json::from_slice(&request.body.unwrap()).unwrap() };
    let message = json!({"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]});
    let send = serde_json::from_value(json!({"tenant": "acme", "message": message})).unwrap();
    let request = encode_call::<method::SendMessage>(
        Binding::HttpJson,
        &a2a_types::rt::RequestId::Null,
        &send,
    )
    .unwrap();
    assert_eq!(request.path, "/acme/message:send");
    let sent = body(request);
    assert_eq!(sent.get("tenant"), None, "{sent}");
    assert_eq!(sent["message"]["messageId"], "m-1");
    let cancel = serde_json::from_value(json!({"id": "t-1", "metadata": {"k": 1}})).unwrap();
    let sent = body(
        encode_call::<method::CancelTask>(
            Binding::HttpJson,
            &a2a_types::rt::RequestId::Null,
            &cancel,
        )
        .unwrap(),
    );
    assert_eq!(sent, json!({"metadata": {"k": 1}}));
    let push =
        serde_json::from_value(json!({"taskId": "t-1", "url": "https://h.example/"})).unwrap();
    let sent = body(
        encode_call::<method::CreateTaskPushNotificationConfig>(
            Binding::HttpJson,
            &a2a_types::rt::RequestId::Null,
            &push,
        )
        .unwrap(),
    );
    assert_eq!(sent.get("taskId"), None, "{sent}");
    assert_eq!(sent["url"], "https://h.example/");
}

/// Regression (live interop with a2a-sdk's REST client): its `subscribe` POSTs
/// `/tasks/{id}:subscribe` without a body (the spec's §11.3.2 prints POST; the proto says GET),
/// which was refused with 405. Both verbs are served, with and without a tenant; the client's
/// encoder still sends the proto's GET.
#[test]
fn subscribe_is_served_under_post_too() {
    for (path, tenant) in [
        ("/tasks/t-1:subscribe", None),
        ("/acme/tasks/t-1:subscribe", Some("acme")),
    ] {
        for (verb, body) in [("GET", &b""[..]), ("POST", b""), ("POST", b"{}")] {
            let Ok(Request::SubscribeToTask(p)) = decode_rest_request(verb, path, "", body) else {
                panic!("{verb} {path} {body:?}");
            };
            assert_eq!((p.id.as_str(), p.tenant.as_deref()), ("t-1", tenant));
        }
    }
    let params = serde_json::from_value(json!({"id": "t-1"})).unwrap();
    let request = encode_call::<method::SubscribeToTask>(
        Binding::HttpJson,
        &a2a_types::rt::RequestId::Null,
        &params,
    )
    .unwrap();
    assert_eq!((request.verb, request.body), ("GET", None));
    // Other verbs are still refused with 405.
    let e = decode_rest_request("DELETE", "/tasks/t-1:subscribe", "", b"").unwrap_err();
    assert_eq!(e.response().status, 405);
}

/// Regression (live interop with a2a-sdk's REST agent): the SDK names the standard JSON-RPC
/// errors by reason too, and they were read as the catch-all `Other` (an invalid `historyLength`
/// was `Other { code: 400 }`, not `InvalidParams` as over JSON-RPC or in the SDK's own client).
/// The bodies are the SDK's, byte for byte, metadata with non-string values included.
#[test]
fn the_sdks_reasons_for_the_standard_errors_name_them() {
    let sdk = |status: u16, body: &'static [u8]| {
        Decoder::new()
            .binding(Binding::HttpJson)
            .decode_http::<Task>(&reply(status, "application/json", body))
            .unwrap_err()
    };
    let e = sdk(
        400,
        br#"{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"Validation failed","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INVALID_PARAMS","domain":"a2a-protocol.org","metadata":{"errors":[{"field":"message.message_id","message":"Field is required."}]}},{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.message_id","description":"Field is required."}]}]}}"#,
    );
    let CallError::Agent(e @ A2aError::InvalidParams { .. }) = e else {
        panic!("{e:?}")
    };
    assert_eq!(e.message(), "Validation failed");
    assert_eq!(e.details().len(), 2);
    assert_eq!(
        e.details()[1].get("fieldViolations").unwrap()[0]["field"],
        "message.message_id"
    );
    let e = sdk(
        400,
        br#"{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"Failed to parse historyLength field","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INVALID_REQUEST","domain":"a2a-protocol.org","metadata":{}}]}}"#,
    );
    assert!(
        matches!(e, CallError::Agent(A2aError::InvalidRequest { .. })),
        "{e:?}"
    );
    let e = sdk(
        404,
        br#"{"error":{"code":404,"status":"NOT_FOUND","message":"Method not found","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"METHOD_NOT_FOUND","domain":"a2a-protocol.org"}]}}"#,
    );
    assert!(
        matches!(e, CallError::Agent(A2aError::MethodNotFound { .. })),
        "{e:?}"
    );
    let e = sdk(
        500,
        br#"{"error":{"code":500,"status":"INTERNAL","message":"broke","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INTERNAL_ERROR","domain":"a2a-protocol.org","metadata":{}}]}}"#,
    );
    assert!(
        matches!(e, CallError::Agent(A2aError::Internal { .. })),
        "{e:?}"
    );
    // Outside the A2A domain the same reason names nothing.
    let e = sdk(
        500,
        br#"{"error":{"code":500,"message":"x","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INTERNAL_ERROR","domain":"example.com"}]}}"#,
    );
    assert!(
        matches!(e, CallError::Agent(A2aError::Other { code: 500, .. })),
        "{e:?}"
    );
    // And our agents name them so, for the SDK's client to map them to its error classes.
    let response = encode_rest_error(&A2aError::from_code(-32602, None, None));
    let body: Value = serde_json::from_slice(&response.body).unwrap();
    assert_eq!(
        body["error"]["details"][0]["reason"], "INVALID_PARAMS",
        "{body}"
    );
    assert_eq!(
        body["error"]["details"][0]["domain"], "a2a-protocol.org",
        "{body}"
    );
}

/// Regression: an `error` event's catch-all took the stream's HTTP status, 200, as its code; it
/// is the Status's own `code` (the HTTP status the error stands for), else 500.
#[test]
fn an_error_event_keeps_the_status_code_it_carries() {
    let body = b"data: {\"task\": {\"id\": \"t-1\"}}\r\n\r\nevent: error\r\ndata: {\"error\": {\"code\": 503, \"status\": \"UNAVAILABLE\", \"message\": \"later\"}}\r\n\r\nevent: error\ndata: {\"error\": {\"message\": \"no code\"}}\n\n";
    let mut decoder = Decoder::new()
        .binding(Binding::HttpJson)
        .stream::<StreamResponse>();
    let items = decoder.feed(body);
    decoder.finish().unwrap();
    assert!(matches!(items[0], Ok(StreamResponse::Task(_))), "{items:?}");
    let codes: Vec<(i64, String)> = items[1..]
        .iter()
        .map(|item| match item {
            Err(CallError::Agent(A2aError::Other { code, message, .. })) => {
                (*code, message.clone())
            }
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        codes,
        [(503, "later".to_string()), (500, "no code".to_string())]
    );
}

/// One client API over both bindings: the binding picked from an agent card, the same call
/// encoded for it and served by the matching server side, and the same outcomes decoded from
/// either binding's replies and streams.
#[test]
fn one_call_api_over_both_bindings_from_the_agent_card() {
    use a2a_types::rt::version::pick_interface;
    use a2a_types::rt::RequestId;
    use a2a_types::v1::{
        decode_request, encode_call, encode_error, encode_event, encode_result, Decoder,
        GetTaskRequest,
    };

    let card = json!({"supportedInterfaces": [
        {"url": "https://a.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": "https://a.example/api", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
    ]});
    let task: Task =
        serde_json::from_value(json!({"id": "t-1", "status": {"state": "TASK_STATE_WORKING"}}))
            .unwrap();
    let id = RequestId::Number(7.into());
    for preferred in [Binding::HttpJson, Binding::JsonRpc] {
        let interface = pick_interface(&card, &[preferred]).unwrap();
        let binding = interface.binding;
        assert_eq!(binding, preferred);
        let params = GetTaskRequest {
            id: "t-1".into(),
            ..Default::default()
        };
        let request = encode_call::<method::GetTask>(binding, &id, &params).unwrap();
        // The server side of the same binding reads the same typed call.
        let served = match binding {
            Binding::JsonRpc => {
                assert_eq!((request.verb, request.path.as_str()), ("POST", ""));
                decode_request(request.body.as_deref().unwrap())
                    .unwrap()
                    .request
            }
            Binding::HttpJson => {
                assert_eq!((request.verb, request.path.as_str()), ("GET", "/tasks/t-1"));
                decode_rest_request(request.verb, &request.path, "", b"").unwrap()
            }
            other => unreachable!("{other:?} is not a JSON binding"),
        };
        assert_eq!(served, Request::GetTask(params));
        // The replies of each binding decode to the same outcomes.
        let (ok, err): (Vec<u8>, (u16, Vec<u8>)) = match binding {
            Binding::JsonRpc => (
                encode_result::<method::GetTask>(&id, &task),
                (
                    200,
                    encode_error(&id, &A2aError::from_code(-32001, None, None)),
                ),
            ),
            Binding::HttpJson => {
                let e = encode_rest_error(&A2aError::from_code(-32001, None, None));
                (
                    encode_rest_result::<method::GetTask>(&task).body,
                    (e.status, e.body),
                )
            }
            other => unreachable!("{other:?} is not a JSON binding"),
        };
        let reply = |status, body: &[u8]| -> Result<Task, CallError> {
            Decoder::new().binding(binding).decode_http(&HttpReply {
                status,
                content_type: None,
                body,
            })
        };
        assert_eq!(reply(200, &ok), Ok(task.clone()));
        assert!(matches!(
            reply(err.0, &err.1),
            Err(CallError::Agent(A2aError::TaskNotFound { .. }))
        ));
        // And so do their streams.
        let event = StreamResponse::Task(task.clone());
        let body = match binding {
            Binding::JsonRpc => {
                encode_event::<method::SendStreamingMessage>(&id, Ok(&event)).to_bytes()
            }
            Binding::HttpJson => {
                encode_rest_event::<method::SendStreamingMessage>(Ok(&event)).to_bytes()
            }
            other => unreachable!("{other:?} is not a JSON binding"),
        };
        let mut decoder = Decoder::new().binding(binding).stream::<StreamResponse>();
        let items: Vec<_> = body.chunks(5).flat_map(|c| decoder.feed(c)).collect();
        decoder.finish().unwrap();
        assert_eq!(items, vec![Ok(event)]);
    }
}
