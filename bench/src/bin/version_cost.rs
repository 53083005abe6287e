//! `version_cost [--calls N] [--rounds R] [--binding jsonrpc|rest]`: what serving A2A 0.3 through
//! the generated conversions costs (issue 32), as a ratio measured in one run: the same request handler (memory store, the
//! bench agent's executor: working, one artifact, completed) answering 0.3 `message/send`
//! (through `a2a_types::v0_3::Compat`: params converted up, the reply down) against 1.0
//! `SendMessage`. Each call is what the server does with a JSON-RPC body, less HTTP: decode the
//! request with the version's generated decoder, dispatch it, encode the result.
//!
//! R rounds (default 7) of N calls per version (default 3000), the versions' order alternating;
//! prints each round's time per call and the median ratio 0.3/1.0. Wall clock on a shared machine
//! moves a lot between rounds; `--only 1.0` or `--only 0.3` makes only that version's calls, to
//! count instructions of each apart (`bench/version-cost.sh`: `perf stat`, the same calls). Every reply is checked (a
//! completed task, in its version's shape). In process, single-threaded: the handler's and the
//! conversion's CPU time, no network.
//!
//! With `--binding rest`, the calls go over HTTP+JSON instead, through the handler's router called
//! in process (`RequestHandler::router`, as the HTTP server calls it, less the socket): 1.0
//! `POST /message:send` against 0.3's `POST /v1/message:send`, whose request is translated onto
//! `message/send` and whose reply is written back in 0.3's REST shape (ProtoJSON of 0.3's proto).

use a2a_agent::RequestHandler;
use a2a_bench::agent::Greeter;
use a2a_types::rt::service::{Dispatch, Outcome, Protocol, RequestContext};
use a2a_types::rt::version::ProtocolVersion;
use a2a_types::rt::{Binding, ErrorTable as _, Limits};
use a2a_types::{v0_3, v1};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One JSON-RPC call through `server`, as the HTTP server makes it: the encoded result.
async fn call<D: Dispatch>(
    server: &D,
    version: ProtocolVersion,
    method: &'static str,
    body: &[u8],
) -> Vec<u8> {
    let incoming = <D::Protocol as Protocol>::decode_jsonrpc(body, &Limits::DEFAULT)
        .unwrap_or_else(|_| panic!("the request does not decode"));
    let cx = RequestContext::new(version, Binding::JsonRpc, method);
    let id = incoming.response_id();
    match server.dispatch(cx, incoming.request).await {
        Ok(Outcome::Unary(reply)) => a2a_types::rt::jsonrpc::server::encode_result(&id, &reply),
        Ok(Outcome::Stream(_)) => panic!("a stream for a unary call"),
        Err(e) => panic!("the call failed: {:?}", e.error().code()),
    }
}

/// One HTTP+JSON `message:send` through the handler's router: the reply's body (checked: 200).
async fn rest_call(router: &axum::Router, version: ProtocolVersion, body: Vec<u8>) -> Vec<u8> {
    use tower_service::Service as _;
    let (path, header) = match version {
        ProtocolVersion::V0_3 => ("/v1/message:send", None),
        _ => ("/message:send", Some("1.0")),
    };
    let mut request = axum::http::Request::post(path).header("content-type", "application/json");
    if let Some(v) = header {
        request = request.header("A2A-Version", v);
    }
    let request = request.body(axum::body::Body::from(body)).unwrap();
    let response = router.clone().call(request).await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    let body = http_body_util::BodyExt::collect(response.into_body()).await;
    body.unwrap().to_bytes().to_vec()
}

fn rest_body_v1(n: usize) -> Vec<u8> {
    format!(
        r#"{{"message":{{"role":"ROLE_USER","messageId":"m-{n}","parts":[{{"text":"hello number {n}"}}]}}}}"#
    )
    .into_bytes()
}

fn rest_body_v0_3(n: usize) -> Vec<u8> {
    format!(
        r#"{{"message":{{"role":"ROLE_USER","messageId":"m-{n}","content":[{{"text":"hello number {n}"}}]}}}}"#
    )
    .into_bytes()
}

fn body_v1(n: usize) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":{n},"method":"SendMessage","params":{{"message":{{"role":"ROLE_USER","messageId":"m-{n}","parts":[{{"text":"hello number {n}"}}]}}}}}}"#
    )
    .into_bytes()
}

fn body_v0_3(n: usize) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":{n},"method":"message/send","params":{{"message":{{"kind":"message","role":"user","messageId":"m-{n}","parts":[{{"kind":"text","text":"hello number {n}"}}]}}}}}}"#
    )
    .into_bytes()
}

fn main() {
    const USAGE: &str =
        "usage: version_cost [--calls N] [--rounds R] [--only 1.0|0.3] [--binding jsonrpc|rest]";
    let (mut calls, mut rounds, mut only, mut rest) = (3000usize, 7usize, None, false);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_else(|| panic!("{USAGE}"));
        let number = || value.parse::<usize>().unwrap_or_else(|_| panic!("{USAGE}"));
        match flag.as_str() {
            "--calls" => calls = number().max(1),
            "--rounds" => rounds = number().max(1),
            "--only" if value == "1.0" => only = Some(0),
            "--only" if value == "0.3" => only = Some(1),
            "--binding" if value == "jsonrpc" => rest = false,
            "--binding" if value == "rest" => rest = true,
            _ => panic!("{USAGE}"),
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let handler = RequestHandler::builder(Greeter).build();
        let card = v1::AgentCard {
            name: "version-cost".into(),
            supported_interfaces: vec![v1::AgentInterface {
                url: "http://127.0.0.1/".into(),
                protocol_binding: "HTTP+JSON".into(),
                protocol_version: "1.0".into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        let router = handler.clone().router(&card).unwrap().into_router().unwrap();
        let v1 = v1::A2aServer::new(handler.clone());
        let v0_3 = v0_3::A2aServer::new(v0_3::Compat(Arc::new(handler)));
        // Both shapes checked once, then warmed up.
        let reply: serde_json::Value = serde_json::from_slice(
            &call(&v1, ProtocolVersion::V1_0, "SendMessage", &body_v1(0)).await,
        )
        .unwrap();
        assert_eq!(
            reply["result"]["task"]["status"]["state"], "TASK_STATE_COMPLETED",
            "{reply}"
        );
        let reply: serde_json::Value = serde_json::from_slice(
            &call(&v0_3, ProtocolVersion::V0_3, "message/send", &body_v0_3(0)).await,
        )
        .unwrap();
        assert_eq!(reply["result"]["kind"], "task", "{reply}");
        assert_eq!(reply["result"]["status"]["state"], "completed", "{reply}");
        for (version, body) in [
            (ProtocolVersion::V1_0, rest_body_v1(0)),
            (ProtocolVersion::V0_3, rest_body_v0_3(0)),
        ] {
            let reply: serde_json::Value =
                serde_json::from_slice(&rest_call(&router, version, body).await).unwrap();
            assert_eq!(
                reply["task"]["status"]["state"], "TASK_STATE_COMPLETED",
                "{reply}"
            );
        }
        let binding = if rest { "HTTP+JSON" } else { "JSON-RPC" };
        let mut next = 1;
        let mut ratios = Vec::new();
        println!(
            "version_cost: {calls} calls per version and round, {rounds} rounds, over {binding} (µs per call)"
        );
        println!("round   1.0 SendMessage   0.3 message/send   0.3/1.0");
        for round in 0..rounds {
            let mut times = [Duration::ZERO; 2];
            for which in [round % 2, 1 - round % 2] {
                if only.is_some_and(|o| o != which) {
                    continue;
                }
                let start = Instant::now();
                for _ in 0..calls {
                    let out = match (which, rest) {
                        (0, true) => {
                            rest_call(&router, ProtocolVersion::V1_0, rest_body_v1(next)).await
                        }
                        (_, true) => {
                            rest_call(&router, ProtocolVersion::V0_3, rest_body_v0_3(next)).await
                        }
                        (0, false) => {
                            call(&v1, ProtocolVersion::V1_0, "SendMessage", &body_v1(next)).await
                        }
                        _ => {
                            call(
                                &v0_3,
                                ProtocolVersion::V0_3,
                                "message/send",
                                &body_v0_3(next),
                            )
                            .await
                        }
                    };
                    assert!(out.len() > 100, "a short reply");
                    next += 1;
                }
                times[which] = start.elapsed();
            }
            let per = |d: Duration| d.as_secs_f64() * 1e6 / calls as f64;
            let ratio = times[1].as_secs_f64() / times[0].as_secs_f64().max(1e-9);
            ratios.push(ratio);
            println!(
                "{round:>5}   {:>15.1}   {:>16.1}   {ratio:>7.3}",
                per(times[0]),
                per(times[1])
            );
        }
        ratios.sort_by(f64::total_cmp);
        println!("median 0.3/1.0: {:.3}x", ratios[ratios.len() / 2]);
    });
}
