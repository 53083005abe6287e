#!/usr/bin/env python3
"""Differential test of reply decoding: a2a-types against the official Python SDK (a2a-sdk 1.3.0).

Rule of the project: a2a-types never refuses a reply that the SDK's own client accepts, unless
the case is on the reviewed allow-list (`tests/differential/allow.toml`). This script proves it
for A2A v1 and v0.3 JSON-RPC replies:

1. It reads the base bodies (`tests/differential/bodies/<version>/<Method>--<what>.json` for a
   unary reply, `.sse` for a stream) and the SDK's captured replies (`wire-captures/a2a-sdk-1.3.0`
   in the shared folder, read in place).
2. It derives the mutated replies: for every object at every depth inside `result`, each member
   dropped and each member set to null; the present member of every oneof renamed to a name no
   version defines; every enum field set to a value no version defines (v1: a name and an
   integer); v0.3: `kind` (and a security scheme's `type`) dropped or set to an unknown value.
   Plus `"result": null` and `"result": {}` for every unary method (for the delete call, its
   void result). Types come from our schema, `spec/<version>/a2a.schema.json`, walked beside the
   body; the base bodies must show every member and enum value a result can hold. No randomness:
   the order is that of the files and of the members in them.
3. Each case goes through the SDK's client, unchanged: its JSON-RPC transport (v1
   `JsonRpcTransport`, v0.3 `CompatJsonRpcTransport`), called through its public methods over an
   `httpx.MockTransport` that answers with the case's body. Accepted = the call returned (for a
   stream: the iteration ended) without raising.
4. All cases of a version go through a2a-types in one run of the `classify` example. Accepted =
   outcome `ok`, and for a stream at least as many events as the SDK yielded (the SDK's v0.3
   transport silently skips an event whose `kind` it does not know; a2a-types may hand it on).
5. Compare. STRICTER: the SDK accepts, a2a-types refuses. MORE TOLERANT: the other way round.
   Exit 1 when a stricter case is not allowed or an allow-list entry matches no stricter case;
   exit 2 when the test cannot run as meant (a malformed allow-list, a base body the SDK refuses
   as it is, bodies that no longer show every member, classify failing, no captures under CI).

The same for A2A v1 over HTTP+JSON (`--version v1_rest`): `rest.py` makes the REST cases (the
results above unwrapped, plus error bodies and stream variants), runs them through the SDK's
REST transport and `classify --binding rest`, and judges them (it also counts an error the SDK
names by its reason and a2a-types does not as stricter).

Usage (tests/differential/run.sh does this):

    replies.py --classify target/debug/examples/classify --out target/differential \
               [--shared ../shared] [--version v1|v0_3|v1_rest ...]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import fnmatch
import json
import logging
import os
import re
import subprocess
import sys
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# rest.py (the HTTP+JSON cases) imports this module by name; run as a script, it is `__main__`.
sys.modules.setdefault("replies", sys.modules[__name__])

HERE = Path(__file__).resolve().parent
DIFF_DIR = HERE.parent
ROOT = DIFF_DIR.parent.parent
URL = "http://agent.invalid/a2a"
CAPTURES = "wire-captures/a2a-sdk-1.3.0"

# What goes in place of a known name or value. None of these is defined by any A2A version.
UNKNOWN_MEMBER = "futureThing"
UNKNOWN_INT = 99
UNKNOWN_KIND = "future-kind"
UNKNOWN_SCHEME_TYPE = "futureScheme"
UNKNOWN_V03_ENUM = {"TaskState": "future-state", "Role": "future-role"}


class HarnessError(Exception):
    """The test itself cannot run as meant (a bad base body, a broken setup)."""


# --------------------------------------------------------------------------------------------
# Cases


@dataclass
class Case:
    name: str
    method: str  # the method's name in v1 (our files are named by it)
    wire_method: str  # the JSON-RPC method name of the version
    stream: bool
    body: bytes
    mutation: str  # the mutation's kind ("as-is", "drop", "null", ...); allow-list `mutation`
    content_type: str = "application/json"
    base_must_pass: bool = False  # one of our base bodies: the SDK must accept it
    sdk: dict[str, Any] = field(default_factory=dict)
    ours: dict[str, Any] = field(default_factory=dict)
    status: int = 200  # the HTTP status (REST cases; JSON-RPC replies are all 200)


@dataclass
class Base:
    name: str  # e.g. "GetTask--input-required" or "capture-004-get-task"
    method: str
    stream: bool
    events: list[Any]  # the parsed envelope(s): one for unary, one per SSE event
    raw: bytes  # the exact bytes, for the unmutated case
    content_type: str
    ours: bool  # written by us (must be accepted by the SDK as it is)
    mutate: bool


def sse_body(events: list[Any]) -> bytes:
    return "".join(f"data: {json.dumps(e, separators=(',', ':'))}\n\n" for e in events).encode()


def sse_events(text: str) -> list[Any]:
    """The JSON `data` of each event of an SSE body (one `data:` line or several per event)."""
    events = []
    # Lines end only at CR/LF here: str.splitlines would also split at U+2028 and the like.
    for block in re.split(r"\r?\n\r?\n", text):
        lines = re.split(r"\r?\n", block)
        data = [line[5:].removeprefix(" ") for line in lines if line.startswith("data:")]
        if data:
            events.append(json.loads("\n".join(data)))
    return events


class Spec:
    """One protocol version: its schema (`spec/<version>/a2a.schema.json`) and method table."""

    def __init__(self, version: str):
        self.version = version
        spec_dir = ROOT / "spec" / version
        self.defs: dict[str, Any] = json.loads((spec_dir / "a2a.schema.json").read_text())["$defs"]
        methods = tomllib.loads((spec_dir / "methods.toml").read_text())["method"]
        # v1 name -> (wire name, result type, streaming)
        self.methods = {
            m.get("rust_name", m["name"]): (m["name"], m["result"], m["streaming"]) for m in methods
        }

    # -- schema walking --

    def resolve(self, node: Any) -> tuple[str | None, dict[str, Any]]:
        name = None
        while isinstance(node, dict) and "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            node = self.defs[name]
        return name, node if isinstance(node, dict) else {}

    def variant(
        self, union: dict[str, Any], value: dict[str, Any]
    ) -> tuple[str | None, dict[str, Any]]:
        """The member of a v0.3 tagged union that `value`'s tag names; `(None, {})` if none."""
        key = union["x-discriminator"]
        for ref in union["oneOf"]:
            name, sch = self.resolve(ref)
            if sch.get("properties", {}).get(key, {}).get("const") == value.get(key):
                return name, sch
        return None, {}

    def walk_result(self, result_type: str, envelope: dict[str, Any]):
        """`walk` over an envelope's `result`, typed as the method's result type."""
        return self.walk(envelope["result"], {"$ref": f"#/$defs/{result_type}"}, ["result"])

    def walk(self, value: Any, node: Any, path: list[Any]):
        """Yields (path, object, info) for every object inside `value`, typed from `node`."""
        name, sch = self.resolve(node)
        disc = None
        if isinstance(value, dict) and "x-discriminator" in sch:
            disc = sch["x-discriminator"]
            name, sch = self.variant(sch, value)
        if isinstance(value, dict):
            props = sch.get("properties")
            info: dict[str, Any] = {"type": name, "oneof": [], "enums": {}, "disc": disc}
            if props is not None:
                if "x-oneof-name" in sch:
                    info["oneof"] = [r["required"][0] for r in sch["oneOf"]]
                for member, pnode in props.items():
                    ename, esch = self.resolve(pnode)
                    if "enum" in esch:
                        info["enums"][member] = (ename, esch["enum"])
                if disc is None and props.get("kind", {}).get("const"):
                    info["disc"] = "kind"
            yield path, value, info
            for key, child in value.items():
                if props is not None:
                    child_node = props.get(key, {})
                elif isinstance(sch.get("additionalProperties"), dict):
                    child_node = sch["additionalProperties"]
                else:
                    child_node = {}
                yield from self.walk(child, child_node, path + [key])
        elif isinstance(value, list):
            items = sch.get("items", {})
            for i, child in enumerate(value):
                yield from self.walk(child, items, path + [i])


def show_path(path: list[Any]) -> str:
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p):
            out += f".{p}" if out else p
        else:
            out += f"[{json.dumps(p)}]"
    return out


def mutations(spec: Spec, result_type: str, envelope: dict[str, Any]):
    """Yields (kind, path of the member, new value or DROP) for one envelope's `result`."""
    v1 = spec.version == "v1"
    for path, obj, info in spec.walk_result(result_type, envelope):
        disc = info["disc"]
        for member, value in obj.items():
            at = path + [member]
            if member == disc:
                yield f"drop-{member}", at, DROP
                unknown = UNKNOWN_KIND if member == "kind" else UNKNOWN_SCHEME_TYPE
                yield f"{member}-unknown", at, unknown
            else:
                yield "drop", at, DROP
            if value is not None:
                yield "null", at, None
        for member in info["oneof"]:
            if member in obj:
                yield "rename-oneof", path + [member], RENAME
        for member, (ename, values) in info["enums"].items():
            if member not in obj:
                continue
            if v1:
                prefix = values[0].removesuffix("UNSPECIFIED")
                yield "enum-unknown-name", path + [member], prefix + "FUTURE"
                yield "enum-unknown-int", path + [member], UNKNOWN_INT
            else:
                yield "enum-unknown", path + [member], UNKNOWN_V03_ENUM.get(ename, "future-value")


DROP = object()
RENAME = object()


def apply(envelope: Any, path: list[Any], new: Any) -> Any:
    out = copy.deepcopy(envelope)
    parent = out
    for p in path[:-1]:
        parent = parent[p]
    last = path[-1]
    if new is DROP:
        del parent[last]
    elif new is RENAME:
        # Same place in the member order, so only the name differs.
        items = [(UNKNOWN_MEMBER if k == last else k, v) for k, v in parent.items()]
        parent.clear()
        parent.update(items)
    else:
        parent[last] = new
    return out


def describe(kind: str, path: list[Any], new: Any) -> str:
    member = show_path(path)
    if new is DROP:
        return f"drop {member}"
    if new is RENAME:
        return f"rename {member} to {UNKNOWN_MEMBER}"
    return f"set {member} to {json.dumps(new)}"


def load_bases(spec: Spec, shared: Path | None) -> list[Base]:
    bases = []
    for path in sorted((DIFF_DIR / "bodies" / spec.version).iterdir()):
        method = path.stem.split("--")[0]
        if method not in spec.methods:
            raise HarnessError(
                f"{path}: `{method}` is not a {spec.version} method (file names are METHOD--WHAT, "
                "with the method's v1 name)"
            )
        raw = path.read_bytes()
        stream = path.suffix == ".sse"
        if stream != spec.methods[method][2]:
            want = ".sse" if spec.methods[method][2] else ".json"
            raise HarnessError(f"{path}: a reply to {method} is a {want} file")
        events = sse_events(raw.decode()) if stream else [json.loads(raw)]
        ctype = "text/event-stream" if stream else "application/json"
        bases.append(Base(path.stem, method, stream, events, raw, ctype, ours=True, mutate=True))
    if shared is not None and spec.version == "v1":
        bases += load_captures(spec, shared / CAPTURES)
    return bases


def load_captures(spec: Spec, folder: Path) -> list[Base]:
    """The SDK's own replies (A2A v1), read in place. Each runs as captured; the success replies
    that are plain ASCII are also mutated (re-encoding one with raw non-ASCII bytes would change
    what it is about)."""
    bases = []
    for resp in sorted(folder.glob("*.response.*")):
        stem = resp.name.split(".response.")[0]
        meta = json.loads((folder / f"{stem}.meta.json").read_text())
        raw = resp.read_bytes()
        request = folder / f"{stem}.request.json"
        if meta.get("path", "").endswith("/agent-card.json"):
            # The card the agent serves, as the result of the extended-card call.
            card = json.loads(raw)
            env = {"jsonrpc": "2.0", "id": "capture-001", "result": card}
            raw = json.dumps(env, separators=(",", ":")).encode()
            method = "GetExtendedAgentCard"
        else:
            try:
                method = json.loads(request.read_text()).get("method")
            except (OSError, ValueError):
                method = None
            if method not in spec.methods:
                print(f"note: capture {stem} answers no {spec.version} method ({method!r}); "
                      "not used")
                continue
        headers = dict(h.split(": ", 1) for h in meta.get("response_headers", []))
        ctype = headers.get("content-type", "application/json")
        stream = spec.methods[method][2]
        events = sse_events(raw.decode()) if resp.suffix == ".sse" else [json.loads(raw)]
        success = all(isinstance(e, dict) and "result" in e for e in events)
        bases.append(Base(f"capture-{stem}", method, stream, events, raw, ctype, ours=False,
                          mutate=success and raw.isascii()))
    return bases


def reachable(spec: Spec, roots: list[str]) -> set[str]:
    """The $defs a result of these types can contain."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += re.findall(r'"#/\$defs/([^"]+)"', json.dumps(spec.defs[name]))
    return seen


def check_coverage(spec: Spec, bases: list[Base]) -> None:
    """Our base bodies must show every method, and every member and enum value of every type a
    result can contain, so that each one is mutated somewhere. A schema change that adds one
    fails here until a body shows it."""
    ours = [b for b in bases if b.ours]
    members: dict[str, set[str]] = {}
    values: dict[str, set[Any]] = {}
    for b in ours:
        result_type = spec.methods[b.method][1]
        for env in b.events:
            for _, obj, info in spec.walk_result(result_type, env):
                if info["type"]:
                    members.setdefault(info["type"], set()).update(obj)
                for member, (ename, _) in info["enums"].items():
                    if member in obj:
                        values.setdefault(ename, set()).add(obj[member])
    missing = [f"method {m}" for m in spec.methods if not any(b.method == m for b in ours)]
    for name in sorted(reachable(spec, [r for _, r, _ in spec.methods.values()])):
        d = spec.defs[name]
        if d.get("properties"):
            absent = sorted(set(d["properties"]) - members.get(name, set()))
            if name not in members:
                missing.append(f"type {name}")
            elif absent:
                missing.append(f"{name} members {', '.join(absent)}")
        if "enum" in d:
            absent = [v for v in d["enum"] if v not in values.get(name, set())]
            if absent:
                missing.append(f"{name} values {', '.join(absent)}")
    if missing:
        raise HarnessError(
            f"the {spec.version} base bodies in {DIFF_DIR / 'bodies' / spec.version} do not show: "
            + "; ".join(missing) + ". Add them to a body, so that they are mutated too"
        )


def build_cases(spec: Spec, bases: list[Base]) -> list[Case]:
    cases = []
    v = spec.version

    def add(name, base, body, kind, must_pass=False, ctype=None):
        wire = spec.methods[base.method][0]
        cases.append(Case(name, base.method, wire, base.stream, body, kind,
                          ctype or base.content_type, must_pass))

    for base in bases:
        add(f"{v}/{base.name}/as-is", base, base.raw, "as-is", must_pass=base.ours)
        if not base.mutate:
            continue
        result_type = spec.methods[base.method][1]
        seen = set()
        for i, envelope in enumerate(base.events):
            for kind, path, new in mutations(spec, result_type, envelope):
                label = describe(kind, path, new)
                if base.stream:
                    label = label.replace(" result", f" event[{i}].result", 1)
                name = f"{v}/{base.name}/{label}"
                if name in seen:
                    raise HarnessError(f"two cases named {name}")
                seen.add(name)
                mutated = apply(envelope, path, new)
                if base.stream:
                    events = base.events[:i] + [mutated] + base.events[i + 1:]
                    body = sse_body(events)
                else:
                    body = json.dumps(mutated, separators=(",", ":")).encode()
                add(name, base, body, kind)

    # Void results: what the delete call may answer with. And the same bodies for every other
    # unary call, where they stand for a result with nothing set.
    for method, (_, _, streaming) in spec.methods.items():
        if streaming:
            continue
        void = method == "DeleteTaskPushNotificationConfig"
        base = Base("void" if void else "empty", method, False, [], b"", "application/json",
                    False, False)
        for text, what in (("null", "null"), ("{}", "empty")):
            body = f'{{"jsonrpc":"2.0","id":"void-1","result":{text}}}'.encode()
            kind = f"void-{what}" if void else f"result-{what}"
            add(f"{v}/{base.name}/{method} result {text}", base, body, kind)
    return cases


# --------------------------------------------------------------------------------------------
# The SDK side


class MockAgent:
    """An httpx transport that answers every request with the current case's body."""

    def __init__(self):
        self.body = b""
        self.content_type = "application/json"
        self.calls = 0

    def __call__(self, request):
        import httpx

        self.calls += 1
        return httpx.Response(200, content=self.body, headers={"content-type": self.content_type})


def sdk_calls(version: str):
    """Per method: a function (transport) -> awaitable or async iterator, through the public API."""
    from a2a.types.a2a_pb2 import (
        CancelTaskRequest,
        DeleteTaskPushNotificationConfigRequest,
        GetExtendedAgentCardRequest,
        GetTaskPushNotificationConfigRequest,
        GetTaskRequest,
        ListTaskPushNotificationConfigsRequest,
        ListTasksRequest,
        Message,
        Part,
        Role,
        SendMessageRequest,
        SubscribeToTaskRequest,
        TaskPushNotificationConfig,
    )

    def message():
        return SendMessageRequest(
            message=Message(message_id="m-1", role=Role.ROLE_USER, parts=[Part(text="hi")])
        )

    calls = {
        "SendMessage": lambda t: t.send_message(message()),
        "SendStreamingMessage": lambda t: t.send_message_streaming(message()),
        "GetTask": lambda t: t.get_task(GetTaskRequest(id="task-1")),
        "CancelTask": lambda t: t.cancel_task(CancelTaskRequest(id="task-1")),
        "SubscribeToTask": lambda t: t.subscribe(SubscribeToTaskRequest(id="task-1")),
        "GetTaskPushNotificationConfig": lambda t: t.get_task_push_notification_config(
            GetTaskPushNotificationConfigRequest(task_id="task-1", id="push-1")
        ),
        "ListTaskPushNotificationConfigs": lambda t: t.list_task_push_notification_configs(
            ListTaskPushNotificationConfigsRequest(task_id="task-1")
        ),
        "DeleteTaskPushNotificationConfig": lambda t: t.delete_task_push_notification_config(
            DeleteTaskPushNotificationConfigRequest(task_id="task-1", id="push-1")
        ),
        "GetExtendedAgentCard": lambda t: t.get_extended_agent_card(GetExtendedAgentCardRequest()),
    }
    create = lambda t: t.create_task_push_notification_config(  # noqa: E731
        TaskPushNotificationConfig(task_id="task-1", id="push-1", url="https://hooks.example/a2a")
    )
    if version == "v1":
        calls["ListTasks"] = lambda t: t.list_tasks(ListTasksRequest())
        calls["CreateTaskPushNotificationConfig"] = create
    else:
        calls["SetTaskPushNotificationConfig"] = create
    return calls


def make_transport(version: str, http):
    """A fresh transport per case: v0.3's keeps the extended card it fetched."""
    from a2a.types.a2a_pb2 import AgentCapabilities, AgentCard, AgentInterface

    binding_version = "1.0" if version == "v1" else "0.3"
    # `extendedAgentCard: true`, or get_extended_agent_card answers from this card unasked.
    card = AgentCard(
        name="mock",
        description="the agent whose replies are the cases",
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(url=URL, protocol_binding="JSONRPC", protocol_version=binding_version)
        ],
        capabilities=AgentCapabilities(streaming=True, extended_agent_card=True),
    )
    if version == "v1":
        from a2a.client.transports.jsonrpc import JsonRpcTransport

        return JsonRpcTransport(httpx_client=http, agent_card=card, url=URL)
    from a2a.compat.v0_3.jsonrpc_transport import CompatJsonRpcTransport

    return CompatJsonRpcTransport(httpx_client=http, agent_card=card, url=URL)


def short(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


async def run_sdk(version: str, cases: list[Case]) -> None:
    import httpx

    calls = sdk_calls(version)
    agent = MockAgent()
    async with httpx.AsyncClient(transport=httpx.MockTransport(agent)) as http:
        for case in cases:
            agent.body, agent.content_type, agent.calls = case.body, case.content_type, 0
            transport = make_transport(version, http)
            call = calls[case.method]
            events = 0
            try:
                if case.stream:
                    async for _ in call(transport):
                        events += 1
                    got = f"{events} events"
                else:
                    got = type(await call(transport)).__name__
                case.sdk = {"accepted": True, "events": events, "returned": got}
            except Exception as e:  # noqa: BLE001: any exception is the SDK refusing the reply
                case.sdk = {
                    "accepted": False,
                    "events": events,
                    "error": short(f"{type(e).__name__}: {e}"),
                }
            if agent.calls != 1:
                raise HarnessError(
                    f"{case.name}: the SDK made {agent.calls} HTTP calls instead of one, "
                    "so it did not read the case's body"
                )


# --------------------------------------------------------------------------------------------
# Our side


def run_ours(spec: Spec, cases: list[Case], classify: Path, out: Path) -> None:
    file = out / f"{spec.version}.cases.json"
    payload = []
    for c in cases:
        item = {"name": c.name, "kind": "stream" if c.stream else "unary", "method": c.wire_method}
        if c.stream and c.content_type.startswith("application/json"):
            item["content_type"] = c.content_type
        if c.body.isascii() or _is_utf8(c.body):
            item["body"] = c.body.decode()
        else:
            import base64

            item["body_b64"] = base64.b64encode(c.body).decode()
        payload.append(item)
    file.write_text(json.dumps(payload, indent=1, ensure_ascii=False))
    proc = subprocess.run(
        [str(classify), "--spec", spec.version, str(file)], capture_output=True, text=True
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


def _is_utf8(b: bytes) -> bool:
    try:
        b.decode()
        return True
    except UnicodeDecodeError:
        return False


def ours_accepts(case: Case) -> bool:
    if case.ours.get("outcome") != "ok":
        return False
    return not case.stream or case.ours.get("events", 0) >= case.sdk["events"]


def ours_text(case: Case) -> str:
    o = case.ours
    if o.get("outcome") == "ok":
        return f"ok with {o.get('events')} events (the SDK yielded {case.sdk['events']})"
    if o.get("outcome") == "error":
        return f"error {o.get('code')} {o.get('variant')}"
    extra = f" after {o['events']} events" if "events" in o else ""
    return f"malformed{extra}: {o.get('reason')}"


def reason_kind(case: Case, text=None) -> str:
    """Our reason without the positions and the result type: one line per kind of refusal."""
    reason = (text or ours_text)(case)
    reason = re.sub(r" at `[^`]*`", "", reason)
    reason = re.sub(r"`result` does not decode as \w+: ", "", reason)
    reason = re.sub(r" after \d+ events", "", reason)
    return short(reason, 150)


# --------------------------------------------------------------------------------------------
# Allow-list


@dataclass
class Allowed:
    case: str | None
    mutation: str | None
    sdk: str | None
    reason: str
    used: int = 0

    def matches(self, c: Case) -> bool:
        said = c.sdk.get("returned") if c.sdk.get("accepted") else c.sdk.get("error")
        return (
            (self.case is None or fnmatch.fnmatchcase(c.name, self.case))
            and (self.mutation is None or fnmatch.fnmatchcase(c.mutation, self.mutation))
            and (self.sdk is None or fnmatch.fnmatchcase(str(said), self.sdk))
        )


def load_allow(path: Path) -> list[Allowed]:
    data = tomllib.loads(path.read_text())
    unknown = set(data) - {"allow"}
    if unknown:
        raise HarnessError(
            f"{path}: unknown top-level keys {sorted(unknown)} (only [[allow]] entries)"
        )
    entries = []
    for i, e in enumerate(data.get("allow", []), 1):
        where = f"{path} [[allow]] entry {i}"
        extra = set(e) - {"case", "mutation", "sdk", "reason"}
        if extra:
            raise HarnessError(
                f"{where}: unknown keys {sorted(extra)} (case, mutation, sdk, reason)"
            )
        if not str(e.get("reason", "")).strip():
            raise HarnessError(
                f"{where}: every entry needs a `reason` saying why it stays stricter"
            )
        if "case" not in e and "mutation" not in e:
            raise HarnessError(f"{where}: give `case` (a pattern over case names) or `mutation`")
        entries.append(
            Allowed(e.get("case"), e.get("mutation"), e.get("sdk"), e["reason"].strip())
        )
    return entries


# --------------------------------------------------------------------------------------------


VERSIONS = ["v1", "v0_3", "v1_rest"]


class JsonRpcJudge:
    """Accepted = the call returned; ours accepts when classify says `ok` (enough events)."""

    STRICTER = "the SDK accepts, a2a-types refuses"
    ACCEPTED = "accepted by the SDK"

    @staticmethod
    def stricter(c: Case) -> bool:
        return c.sdk["accepted"] and not ours_accepts(c)

    @staticmethod
    def more_tolerant(c: Case) -> bool:
        return not c.sdk["accepted"] and ours_accepts(c)

    @staticmethod
    def understood(c: Case) -> bool:
        return c.sdk["accepted"]

    @staticmethod
    def sdk_text(c: Case) -> str:
        return f"the SDK accepted ({c.sdk['returned']})"

    ours_text = staticmethod(ours_text)


def judge(version: str):
    if version == "v1_rest":
        import rest

        return rest
    return JsonRpcJudge


def run_version(version: str, shared: Path | None, classify: Path, out: Path) -> list[Case]:
    if version == "v1_rest":
        import rest

        return rest.run(shared, classify, out)
    spec = Spec(version)
    bases = load_bases(spec, shared)
    check_coverage(spec, bases)
    cases = build_cases(spec, bases)
    asyncio.run(run_sdk(version, cases))
    bad = [c for c in cases if c.base_must_pass and not c.sdk["accepted"]]
    if bad:
        lines = "\n".join(f"  {c.name}: {c.sdk['error']}" for c in bad)
        raise HarnessError(f"the SDK refuses base bodies as they are; fix them:\n{lines}")
    run_ours(spec, cases, classify, out)
    return cases


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--classify", required=True, type=Path, help="the built classify example")
    ap.add_argument("--out", required=True, type=Path, help="where the case files and report go")
    ap.add_argument("--shared", type=Path, help="the shared reference folder (for the captures)")
    ap.add_argument("--version", action="append", choices=VERSIONS,
                    help="default: all (v1_rest: A2A v1 over HTTP+JSON)")
    ap.add_argument("--allow", type=Path, default=DIFF_DIR / "allow.toml")
    args = ap.parse_args()
    logging.disable(logging.CRITICAL)  # the SDK logs what it refuses; the report says it once
    started = time.monotonic()
    args.out.mkdir(parents=True, exist_ok=True)

    shared = args.shared
    if shared is not None and not (shared / CAPTURES).is_dir():
        if os.environ.get("CI"):
            print(f"FAILED: no captured SDK replies at {shared / CAPTURES}; CI must run with them "
                  "(lay shared/ beside the checkout or set A2A_SHARED_DIR)")
            return 2
        print(f"SKIPPED captured replies: no folder {shared / CAPTURES} (set A2A_SHARED_DIR); "
              "running the base bodies only")
        shared = None

    try:
        allow = load_allow(args.allow)
        results = {v: run_version(v, shared, args.classify, args.out)
                   for v in (args.version or VERSIONS)}
    except HarnessError as e:
        print(f"FAILED (the test could not run): {e}")
        return 2

    failed = passed = 0
    summaries = []
    report = []
    for version, cases in results.items():
        j = judge(version)
        stricter = [c for c in cases if j.stricter(c)]
        tolerant = [c for c in cases if j.more_tolerant(c)]
        n_acc = sum(j.understood(c) for c in cases)
        n_ref = len(cases) - n_acc
        unallowed = []
        print(f"\n== {version}: {len(cases)} cases ({n_acc} {j.ACCEPTED}, {n_ref} refused)")
        if stricter:
            print(f"STRICTER ({len(stricter)}): {j.STRICTER}")
        for c in stricter:
            hit = next((a for a in allow if a.matches(c)), None)
            if hit:
                hit.used += 1
                print(f"  allowed   {c.name}  [{c.mutation}]\n            ours: {j.ours_text(c)}\n"
                      f"            {j.sdk_text(c)}; allowed: {short(hit.reason, 90)}")
            else:
                unallowed.append(c)
                print(f"  STRICTER  {c.name}  [{c.mutation}]\n            ours: {j.ours_text(c)}\n"
                      f"            {j.sdk_text(c)}")
        if tolerant:
            print(f"MORE TOLERANT ({len(tolerant)}): a2a-types accepts, the SDK refuses")
        for c in tolerant:
            print(f"  tolerant  {c.name}: the SDK refused: {short(c.sdk['error'], 160)}")
        by_kind = Counter(c.mutation for c in stricter)
        if by_kind:
            counts = ", ".join(f"{k} {n}" for k, n in sorted(by_kind.items()))
            print(f"stricter by mutation: {counts}")
            print("stricter by our reason (positions left out):")
            by_reason = Counter(reason_kind(c, j.ours_text) for c in stricter)
            for reason, n in sorted(by_reason.items(), key=lambda kv: (-kv[1], kv[0])):
                print(f"  {n:4}  {reason}")
        failed += len(unallowed)
        passed += len(cases) - len(unallowed)
        label = {"v0_3": "v0.3", "v1_rest": "v1 REST"}.get(version, version)
        summaries.append(f"{label} replies: stricter {len(stricter)} of {n_acc} accepted; "
                         f"more tolerant {len(tolerant)} of {n_ref} refused")
        report += [{"version": version, "name": c.name, "mutation": c.mutation, "method": c.method,
                    "sdk": c.sdk, "ours": c.ours,
                    "verdict": "stricter" if c in stricter else "more-tolerant" if c in tolerant
                    else "same"} for c in cases]

    (args.out / "report.json").write_text(json.dumps(report, indent=1))
    # An entry unused on a partial run (one version, no captures) may be used by the rest.
    complete = shared is not None and set(results) == set(VERSIONS)
    unused = [a for a in allow if a.used == 0] if complete else []
    print()
    if not complete:
        print("note: a partial run (one version or no captures) does not check for unused "
              "allow-list entries")
    for a in unused:
        print(f"FAILED: allow-list entry (case={a.case!r}, mutation={a.mutation!r}) matches no "
              f"stricter case; delete it ({args.allow})")
    for line in summaries:
        print(line)
    print(f"(cases, SDK outcomes and ours: {args.out / 'report.json'}; "
          f"{time.monotonic() - started:.1f}s)")
    if unused:
        failed += len(unused)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
