"""The REST half of the reply differential test: A2A v1 over HTTP+JSON.

The reference is the SDK's REST client transport, `a2a.client.transports.rest.RestTransport`,
called through its public methods over an `httpx.MockTransport` that answers with the case's
HTTP status, content type and body. So the functions that turn an HTTP response into a result or
an error are the SDK's own: `send_http_request` (`raise_for_status`, then `response.json()`),
`_handle_http_error` and `_parse_rest_error` (the first ErrorInfo's `reason` names the error
class; without one, a 404 is `MethodNotFoundError` and anything else a generic
`A2AClientError`), `send_http_stream_request` with its SSE reader and `_handle_sse_error` for an
event named `error`, and `parse_lenient` for the result.

Cases (all v1; names start with `v1_rest/`):

- *Results*: every base body and captured success reply of the JSON-RPC side, as the bare
  result at HTTP 200 (streams: one bare result per SSE event), and every mutation the JSON-RPC
  side makes of them (`replies.mutations`), applied to the result.
- *REST success variants*: an empty body, `null`, `{}`, a list, a BOM, other 2xx statuses and
  content types for every unary method (an empty body at 200 is what a Delete may get); for the
  streaming methods a plain JSON reply instead of SSE, CRLF line ends, comments and ids, data
  split over lines, named events, an empty event, a stream cut off mid-event.
- *Errors*: a `google.rpc.Status` for every reason a2a-sdk knows, at its HTTP status and at 500,
  for every method; every member of the Status and of its details dropped, nulled, given
  another JSON type, plus an unknown member; the reason unknown, the domain foreign, empty or
  missing, the ErrorInfo after another detail or twice; no ErrorInfo at many statuses;
  problem+json bodies (RFC 9457, as the spec's §6 prints them); a bare Status (no `error`
  wrapper, as grpc-gateway writes it); bodies that are not JSON (HTML, text, empty); a Status at
  200. For the streaming methods the same as a reply before the stream, and as an SSE `error`
  event after a first event.

Judging a case: the SDK *accepts* it when the call returns (a stream: the iteration ends), and
*names* it when it raises one of its A2A error classes (the reason is that class's reason in the
SDK's table); anything else is a refusal. a2a-types accepts when classify says `ok` (a stream: at
least as many events), and names it when it says `error` with a variant other than the catch-all
`Other` (its `reason`). Levels: accepted 2, named 1, else 0. STRICTER: our level is below the
SDK's, or both name the error and the reasons differ, or a stream gave fewer events before its
end. MORE TOLERANT: our level is above the SDK's.
"""

from __future__ import annotations

import copy
import json
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import replies
from replies import HarnessError, Case, Spec, URL

VERSION = "v1_rest"
ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"
BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest"
A2A_DOMAIN = "a2a-protocol.org"
BOM = b"\xef\xbb\xbf"

# The reasons a2a-sdk 1.3.0's server writes for the standard JSON-RPC errors, with the HTTP
# status it writes them at (its `A2A_ERROR_MAPPING`). A2A's own reasons come from errors.toml.
STANDARD_REASONS = {
    "INVALID_PARAMS": 400,
    "INVALID_REQUEST": 400,
    "METHOD_NOT_FOUND": 404,
    "INTERNAL_ERROR": 500,
}
GRPC_OF_HTTP = {400: "INVALID_ARGUMENT", 404: "NOT_FOUND", 500: "INTERNAL"}


def reasons() -> dict[str, tuple[int, str]]:
    """Every reason to send: A2A's from errors.toml (with its HTTP and gRPC status), then the
    standard ones the SDK writes."""
    rows = tomllib.loads((replies.ROOT / "spec/v1/errors.toml").read_text())["error"]
    out = {r["reason"]: (r["http"], r["grpc"]) for r in rows if r.get("reason")}
    for reason, http in STANDARD_REASONS.items():
        out.setdefault(reason, (http, GRPC_OF_HTTP[http]))
    return out


def status_body(reason: str | None, http: int, grpc: str, message: str = "it failed") -> dict:
    """A `google.rpc.Status` reply as §11.6 writes it: the ErrorInfo, then a BadRequest."""
    details: list[Any] = []
    if reason is not None:
        details.append({"@type": ERROR_INFO, "reason": reason, "domain": A2A_DOMAIN,
                        "metadata": {"taskId": "task-1"}})
    details.append({"@type": BAD_REQUEST,
                    "fieldViolations": [{"field": "id", "description": "why"}]})
    return {"error": {"code": http, "status": grpc, "message": message, "details": details}}


def dumps(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def sse(datas: list[str], end: str = "\n") -> bytes:
    return "".join(f"data: {d}{end}{end}" for d in datas).encode()


# --------------------------------------------------------------------------------------------
# Mutations of an error body: no schema, every object at every depth.

OTHER_TYPES: list[Any] = ["text", 7, True, [], {}]


def walk_objects(value: Any, path: list[Any]):
    if isinstance(value, dict):
        yield path, value
        for k, v in value.items():
            yield from walk_objects(v, path + [k])
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_objects(v, path + [i])


def error_mutations(body: dict):
    """Yields (kind, label, mutated body)."""
    for path, obj in walk_objects(body, []):
        for member, value in obj.items():
            at = path + [member]
            where = replies.show_path(at)
            yield "error-drop", f"drop {where}", replies.apply(body, at, replies.DROP)
            if value is not None:
                yield "error-null", f"set {where} to null", replies.apply(body, at, None)
            for other in OTHER_TYPES:
                if type(other) is not type(value):
                    yield ("error-retype", f"set {where} to {json.dumps(other)}",
                           replies.apply(body, at, other))
        yield ("error-unknown-member", f"add {replies.show_path(path + ['futureThing'])}",
               replies.apply(body, path + ["futureThing"], {"x": 1}))


# --------------------------------------------------------------------------------------------
# Cases


def build_cases(spec: Spec, bases: list[replies.Base]) -> list[Case]:
    cases: list[Case] = []
    seen: set[str] = set()
    streaming = {m for m, (_, _, s) in spec.methods.items() if s}
    unary = [m for m in spec.methods if m not in streaming]

    def add(name: str, method: str, body: bytes, kind: str, status: int = 200,
            ctype: str | None = "application/json", must_pass: bool = False):
        name = f"{VERSION}/{name}"
        if name in seen:
            raise HarnessError(f"two cases named {name}")
        seen.add(name)
        case = Case(name, method, method, method in streaming, body, kind, ctype, must_pass)
        case.status = status
        cases.append(case)

    def bare(base: replies.Base, events: list[Any]) -> bytes:
        results = [e["result"] for e in events]
        if base.stream:
            return sse([dumps(r).decode() for r in results])
        return dumps(results[0])

    # Results: the JSON-RPC side's bases and their mutations, unwrapped.
    first: dict[str, replies.Base] = {}
    for base in bases:
        if not all(isinstance(e, dict) and "result" in e for e in base.events):
            continue  # an error reply of the captures: the error cases below cover REST's
        first.setdefault(base.method, base)
        ctype = "text/event-stream" if base.stream else "application/json"
        add(f"{base.name}/as-is", base.method, bare(base, base.events), "as-is", ctype=ctype,
            must_pass=base.ours)
        if not base.mutate:
            continue
        result_type = spec.methods[base.method][1]
        for i, envelope in enumerate(base.events):
            for kind, path, new in replies.mutations(spec, result_type, envelope):
                label = replies.describe(kind, path, new).replace(" result", " body", 1)
                if base.stream:
                    label = label.replace(" body", f" event[{i}]", 1)
                events = base.events[:i] + [replies.apply(envelope, path, new)] + \
                    base.events[i + 1:]
                add(f"{base.name}/{label}", base.method, bare(base, events), kind, ctype=ctype)

    # REST's own success variants.
    for method in unary:
        base = first[method]
        body = bare(base, base.events)
        for text, what, kind in ((b"", "empty body", "empty"), (b"null", "null", "null"),
                                 (b"{}", "{}", "empty-object"), (b"[]", "[]", "list"),
                                 (b"  \r\n", "whitespace", "whitespace")):
            add(f"success/{method} 200 {what}", method, text, f"success-{kind}")
        add(f"success/{method} 204 empty body", method, b"", "success-204", status=204)
        add(f"success/{method} BOM", method, BOM + body, "success-bom")
        add(f"success/{method} 201", method, body, "success-2xx", status=201)
        for ctype in ("application/a2a+json", "text/plain", None):
            add(f"success/{method} content type {ctype}", method, body, "success-content-type",
                ctype=ctype)
    for method in sorted(streaming):
        base = first[method]
        datas = [dumps(e["result"]).decode() for e in base.events]
        one = datas[0].encode()
        for ctype in ("application/json", "application/a2a+json", None):
            add(f"stream/{method} plain {ctype} body", method, one, "stream-plain-json",
                ctype=ctype)
        variants = {
            "CRLF line ends": sse(datas, "\r\n"),
            "CR line ends": sse(datas, "\r"),
            "comments, ids and retry": b": keep-alive\n\n" + b"".join(
                f"id: {i}\nretry: 1000\n: note\ndata: {d}\n\n".encode()
                for i, d in enumerate(datas)),
            "data split over lines": b"".join(
                ("data: " + d.replace(",", ",\ndata: ", 1) + "\n\n").encode() for d in datas),
            "named events": b"".join(f"event: update\ndata: {d}\n\n".encode() for d in datas),
            "empty events between": b"data:\n\n".join([b""] + [sse([d]) for d in datas]),
            "no space after colon": b"".join(f"data:{d}\n\n".encode() for d in datas),
            "BOM": BOM + sse(datas),
            "event data not JSON": sse(datas + ["not json"]),
        }
        for what, body in variants.items():
            add(f"stream/{method} {what}", method, body, "stream-sse",
                ctype="text/event-stream")
        add(f"stream/{method} event data a list", method, sse(datas + ["[]"]), "stream-list",
            ctype="text/event-stream")
        cut = {"cut off mid-event": sse(datas)[:-1] + b"data: {\"task\"",
               "last event without its blank line": sse(datas)[:-1]}
        for what, body in cut.items():
            add(f"stream/{method} {what}", method, body, "stream-cut-off",
                ctype="text/event-stream")

    # Errors.
    table = reasons()
    canonical = status_body("TASK_NOT_FOUND", *table["TASK_NOT_FOUND"])
    for method in spec.methods:
        for reason, (http, grpc) in table.items():
            body = dumps(status_body(reason, http, grpc))
            add(f"error/{method} HTTP {http} {reason}", method, body, "error-reason", status=http)
            if http != 500:
                add(f"error/{method} HTTP 500 {reason}", method, body, "error-reason",
                    status=500)
        add(f"error/{method} HTTP 404 without an ErrorInfo", method,
            dumps(status_body(None, 404, "NOT_FOUND")), "error-no-errorinfo", status=404)
    for http in (300, 302, 400, 401, 403, 404, 405, 409, 415, 429, 500, 501, 502, 503, 504):
        grpc = GRPC_OF_HTTP.get(http, "UNKNOWN")
        add(f"error/GetTask HTTP {http} no ErrorInfo", "GetTask",
            dumps(status_body(None, http, grpc)), "error-no-errorinfo", status=http)
        add(f"error/GetTask HTTP {http} unknown reason", "GetTask",
            dumps(status_body("FUTURE_REASON", http, grpc)), "error-unknown-reason", status=http)
    for kind, label, mutated in error_mutations(canonical):
        add(f"error/GetTask HTTP 404 TASK_NOT_FOUND {label}", "GetTask", dumps(mutated), kind,
            status=404)
    info = canonical["error"]["details"][0]
    shapes: dict[str, tuple[str, Any]] = {
        "foreign domain": ("error-foreign-domain",
                           {**info, "domain": "billing.example.com"}),
        "empty domain": ("error-domain", {**info, "domain": ""}),
        "no domain": ("error-domain", {k: v for k, v in info.items() if k != "domain"}),
        "reason lower case": ("error-reason-case", {**info, "reason": "task_not_found"}),
    }
    for what, (kind, detail) in shapes.items():
        body = copy.deepcopy(canonical)
        body["error"]["details"][0] = detail
        for http in (404, 400):
            add(f"error/GetTask HTTP {http} ErrorInfo with {what}", "GetTask", dumps(body), kind,
                status=http)
    reordered = copy.deepcopy(canonical)
    reordered["error"]["details"].reverse()
    add("error/GetTask HTTP 404 BadRequest before the ErrorInfo", "GetTask", dumps(reordered),
        "error-details-order", status=404)
    twice = copy.deepcopy(canonical)
    twice["error"]["details"].insert(0, {**info, "reason": "FUTURE_REASON"})
    add("error/GetTask HTTP 404 an unknown reason's ErrorInfo first", "GetTask", dumps(twice),
        "error-details-order", status=404)
    foreign_first = copy.deepcopy(canonical)
    foreign_first["error"]["details"].insert(0, {**info, "reason": "QUOTA", "domain": "x.example"})
    add("error/GetTask HTTP 404 a foreign ErrorInfo first", "GetTask", dumps(foreign_first),
        "error-details-order", status=404)
    problems = {
        "problem+json 404": (404, {"type": "https://a2a-protocol.org/errors/task-not-found",
                                   "title": "Task not found", "status": 404,
                                   "detail": "No task task-1"}),
        "problem+json 400 with errors": (400, {"type": "about:blank", "title": "Bad Request",
                                               "status": 400, "detail": "bad",
                                               "errors": [{"field": "id"}]}),
        "problem+json 500 title only": (500, {"title": "Internal error"}),
    }
    for what, (http, body) in problems.items():
        for method in ("GetTask", "SendMessage"):
            add(f"error/{method} {what}", method, dumps(body), "error-problem-json", status=http,
                ctype="application/problem+json")
    bare_status = {"code": 5, "message": "Task not found", "details": [info]}
    add("error/GetTask HTTP 404 bare Status", "GetTask", dumps(bare_status), "error-bare-status",
        status=404)
    add("error/GetTask HTTP 400 bare Status", "GetTask", dumps(bare_status), "error-bare-status",
        status=400)
    not_json = {
        "HTML 502": (502, "text/html", b"<html><body><h1>502 Bad Gateway</h1></body></html>"),
        "HTML 404": (404, "text/html", b"<html>Not Found</html>"),
        "text 503": (503, "text/plain", b"upstream connect error"),
        "empty 500": (500, None, b""),
        "empty 404": (404, None, b""),
        "empty 400": (400, "application/json", b""),
        "truncated Status 500": (500, "application/json", dumps(canonical)[:40]),
    }
    for what, (http, ctype, body) in not_json.items():
        add(f"error/GetTask {what}", "GetTask", body, "error-not-json", status=http,
            ctype=ctype)
    json_not_status = {
        "null": b"null", "string": b"\"oops\"", "list": b"[]", "{}": b"{}",
        "error string": b"{\"error\":\"boom\"}", "error without details": b"{\"error\":{\"code\":500}}",
        "BOM Status": BOM + dumps(canonical),
    }
    for what, body in json_not_status.items():
        for http in (404, 500):
            add(f"error/GetTask HTTP {http} {what}", "GetTask", body, "error-json-other",
                status=http)
    for method in unary:
        add(f"error/{method} HTTP 200 Status body", method, dumps(canonical), "error-at-200")

    # Errors of the streaming methods: before the stream (a plain reply), and as an SSE `error`
    # event after the first event.
    for method in sorted(streaming):
        base = first[method]
        data = dumps(base.events[0]["result"]).decode()
        for reason, (http, grpc) in table.items():
            status = dumps(status_body(reason, http, grpc)).decode()
            add(f"stream-error/{method} event {reason}", method,
                sse([data]) + f"event: error\ndata: {status}\n\n".encode(), "stream-error-event",
                ctype="text/event-stream")
        add(f"stream-error/{method} before the stream HTTP 404 TASK_NOT_FOUND", method,
            dumps(canonical), "stream-error-reply", status=404)
        add(f"stream-error/{method} before the stream HTTP 502 HTML", method, not_json["HTML 502"][2],
            "stream-error-reply", status=502, ctype="text/html")
        add(f"stream-error/{method} before the stream HTTP 500 no ErrorInfo", method,
            dumps(status_body(None, 500, "INTERNAL")), "stream-error-reply", status=500,
            ctype="text/event-stream")
        others = {
            "no ErrorInfo": dumps(status_body(None, 500, "INTERNAL")),
            "unknown reason": dumps(status_body("FUTURE_REASON", 500, "INTERNAL")),
            "foreign domain": dumps({"error": {"code": 404, "message": "x", "details": [
                {**info, "domain": "billing.example.com"}]}}),
            "no domain": dumps({"error": {"code": 404, "message": "x", "details": [
                {k: v for k, v in info.items() if k != "domain"}]}}),
            "problem+json": dumps(problems["problem+json 404"][1]),
            "bare Status": dumps(bare_status),
            "not JSON": b"boom",
            "null": b"null",
        }
        for what, status in others.items():
            add(f"stream-error/{method} event with {what}", method,
                sse([data]) + b"event: error\ndata: " + status + b"\n\n", "stream-error-event",
                ctype="text/event-stream")
    return cases


# --------------------------------------------------------------------------------------------
# The SDK side


class MockAgent:
    """An httpx transport answering every request with the current case's status and body."""

    def __init__(self):
        self.case: Case | None = None
        self.calls = 0

    def __call__(self, request):
        import httpx

        self.calls += 1
        case = self.case
        headers = {"content-type": case.content_type} if case.content_type else {}
        return httpx.Response(case.status, content=case.body, headers=headers)


def make_transport(http):
    from a2a.client.transports.rest import RestTransport
    from a2a.types.a2a_pb2 import AgentCapabilities, AgentCard, AgentInterface

    card = AgentCard(
        name="mock",
        description="the agent whose replies are the cases",
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(url=URL, protocol_binding="HTTP+JSON", protocol_version="1.0")
        ],
        capabilities=AgentCapabilities(streaming=True, extended_agent_card=True),
    )
    return RestTransport(httpx_client=http, agent_card=card, url=URL)


async def run_sdk(cases: list[Case]) -> None:
    import httpx
    from a2a.utils.errors import A2A_ERROR_REASONS

    calls = replies.sdk_calls("v1")
    agent = MockAgent()
    async with httpx.AsyncClient(transport=httpx.MockTransport(agent)) as http:
        for case in cases:
            agent.case, agent.calls = case, 0
            call = calls[case.method]
            events = 0
            try:
                if case.stream:
                    async for _ in call(make_transport(http)):
                        events += 1
                    got = f"{events} events"
                else:
                    got = type(await call(make_transport(http))).__name__
                case.sdk = {"accepted": True, "events": events, "returned": got}
            except Exception as e:  # noqa: BLE001: any exception is the SDK refusing the reply
                case.sdk = {
                    "accepted": False,
                    "events": events,
                    "reason": A2A_ERROR_REASONS.get(type(e)),
                    "error": replies.short(f"{type(e).__name__}: {e}"),
                }
            if agent.calls != 1:
                raise HarnessError(
                    f"{case.name}: the SDK made {agent.calls} HTTP calls instead of one, "
                    "so it did not read the case's body"
                )


# --------------------------------------------------------------------------------------------
# Our side


def run_ours(cases: list[Case], classify: Path, out: Path) -> None:
    file = out / f"{VERSION}.cases.json"
    payload = []
    for c in cases:
        item: dict[str, Any] = {"name": c.name, "kind": "stream" if c.stream else "unary",
                                "method": c.method, "status": c.status}
        # No header at all is an empty content type in the classify contract.
        item["content_type"] = c.content_type or ""
        if replies._is_utf8(c.body):
            item["body"] = c.body.decode()
        else:
            import base64

            item["body_b64"] = base64.b64encode(c.body).decode()
        payload.append(item)
    file.write_text(json.dumps(payload, indent=1, ensure_ascii=False))
    proc = subprocess.run(
        [str(classify), "--spec", "v1", "--binding", "rest", str(file)],
        capture_output=True, text=True,
    )
    if proc.returncode != 0:
        raise HarnessError(f"classify exited {proc.returncode} on {file}:\n{proc.stderr}")
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    if len(lines) != len(cases):
        raise HarnessError(f"classify printed {len(lines)} lines for {len(cases)} cases ({file})")
    for case, line in zip(cases, lines):
        if line.get("name") != case.name:
            raise HarnessError(f"classify answered {line.get('name')!r} for {case.name!r}")
        case.ours = line


# --------------------------------------------------------------------------------------------
# Judging

STRICTER = "the SDK accepts or names the error, a2a-types refuses or names another"
ACCEPTED = "accepted or named by the SDK"


def sdk_level(c: Case) -> int:
    return 2 if c.sdk["accepted"] else 1 if c.sdk.get("reason") else 0


def ours_named(c: Case) -> str | None:
    o = c.ours
    if o.get("outcome") == "error" and o.get("variant") != "Other":
        return o.get("reason")
    return None


def ours_level(c: Case) -> int:
    if c.ours.get("outcome") == "ok":
        return 2
    return 1 if ours_named(c) else 0


def stricter(c: Case) -> bool:
    sdk, ours = sdk_level(c), ours_level(c)
    if ours < sdk:
        return True
    if c.stream and sdk > 0 and c.ours.get("events", 0) < c.sdk["events"]:
        return True
    return sdk == ours == 1 and ours_named(c) != c.sdk["reason"]


def more_tolerant(c: Case) -> bool:
    return not stricter(c) and ours_level(c) > sdk_level(c)


def understood(c: Case) -> bool:
    return sdk_level(c) > 0


def sdk_text(c: Case) -> str:
    if c.sdk["accepted"]:
        return f"the SDK accepted ({c.sdk['returned']})"
    return f"the SDK named {c.sdk['reason']} ({c.sdk['error']})"


def ours_text(c: Case) -> str:
    o = c.ours
    where = f" at HTTP {o['status']}" if "status" in o else ""
    if o.get("outcome") == "error":
        after = f" after {o['events']} events" if "events" in o else ""
        return f"error {o.get('code')} {o.get('variant')} (reason {o.get('reason')}){after}{where}"
    return replies.ours_text(c) + (where if o.get("outcome") == "malformed" else "")


def run(shared: Path | None, classify: Path, out: Path) -> list[Case]:
    import asyncio

    spec = Spec("v1")
    bases = replies.load_bases(spec, shared)
    replies.check_coverage(spec, bases)
    cases = build_cases(spec, bases)
    asyncio.run(run_sdk(cases))
    bad = [c for c in cases if c.base_must_pass and not c.sdk["accepted"]]
    if bad:
        lines = "\n".join(f"  {c.name}: {c.sdk['error']}" for c in bad)
        raise HarnessError(f"the SDK's REST client refuses base bodies as they are:\n{lines}")
    run_ours(cases, classify, out)
    return cases
