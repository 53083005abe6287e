#!/usr/bin/env python3
"""How long the official Python SDK (a2a-sdk 1.3.0) takes to turn a reply body into its result.

The same bodies the Rust decode bench times (`tests/benches/decode.rs` writes them to
`target/bench-bodies/` when it runs), each handed to the SDK's own public client:

    task_2kb.json, task_200kb.json   GetTask             -> a `Task`
    error_reply.json                 GetTask             -> the mapped exception (TaskNotFoundError)
    sse_1000_events.sse              SendStreamingMessage -> 1000 `StreamResponse` events

The client is the SDK's public one (`a2a.client.create_client` on an `AgentCard` with one
JSON-RPC interface, protocol version 1.0) over an `httpx.MockTransport` that returns the body, so
no socket is opened. One call therefore includes what the SDK does around the decode: encoding
the request (`MessageToDict`, a JSON-RPC id), httpx building the request and reading the mocked
response, the envelope check, and the ProtoJSON parse (`json_format.ParseDict`, upb backend).

Each case also times, for context:

- `json_loads`: `json.loads` of the body (of each event's data for SSE): the floor of any
  Python JSON client;
- `sdk_parse`: `json.loads` plus the SDK's `parse_lenient` of the `result` into the proto
  message: the SDK's decode step without the client around it (not for the error reply, whose
  mapping the SDK keeps private).

Every call is timed on its own with `time.perf_counter_ns`, repeated until both a minimum count
and a time budget are reached (after a warm-up), and the median is reported. Before timing,
each case checks that the SDK decoded the body completely (the task's id, history and artifact
counts; the number of events; the exception type), so the timings cannot be of different work.

Output: one JSON object per line on stdout. The first has `"kind": "meta"` (versions); then one
`"kind": "timing"` line per case and measure:

    {"kind": "timing", "case": "task_2kb", "measure": "sdk_client", "median_ns": 123456.0,
     "min_ns": 120000, "reps": 2000}

Run: `target/interop-venv/bin/python bench/python/decode_bench.py target/bench-bodies`
(`tests/interop/venv.sh` makes the venv). Exit status 1, with the reason on stderr, when a body
is missing or the SDK does not decode it as expected.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import json
import platform
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from a2a.client import ClientConfig, create_client
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    GetTaskRequest,
    Message,
    Part,
    Role,
    SendMessageRequest,
    StreamResponse,
    Task,
    TaskNotFoundError,
)
from a2a.utils.proto_utils import parse_lenient
from google.protobuf.internal import api_implementation

URL = "http://bench.invalid/a2a"

# (case, file, how the client reaches the result). The case names are the Rust bench's criterion
# groups, so that the Rust side can put the two next to each other.
CASES = [
    ("task_2kb", "task_2kb.json", "get_task"),
    ("task_200kb", "task_200kb.json", "get_task"),
    ("error_reply", "error_reply.json", "get_task_error"),
    ("sse_1000_events", "sse_1000_events.sse", "stream"),
]


class BenchError(Exception):
    """The bench cannot run, or the SDK did not decode a body as expected."""


def sse_data(body: str) -> list[str]:
    """The `data` of each event of an SSE body the Rust bench wrote (one `data:` line each)."""
    return [
        event[len("data: ") :]
        for event in body.split("\n\n")
        if event.startswith("data: ")
    ]


async def make_client(body: bytes, content_type: str) -> Any:
    """The SDK's public client, its HTTP transport replaced by one that returns `body`."""

    def reply(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": content_type})

    card = AgentCard(
        name="bench",
        description="a mocked agent for the decode bench",
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(url=URL, protocol_binding="JSONRPC", protocol_version="1.0")
        ],
        capabilities=AgentCapabilities(streaming=True),
    )
    http = httpx.AsyncClient(transport=httpx.MockTransport(reply))
    return await create_client(card, client_config=ClientConfig(httpx_client=http, streaming=True))


def message_request() -> SendMessageRequest:
    return SendMessageRequest(
        message=Message(message_id="bench-1", role=Role.ROLE_USER, parts=[Part(text="hi")])
    )


async def time_calls(
    call: Callable[[], Awaitable[Any]], min_reps: int, seconds: float
) -> dict[str, Any]:
    """Median and minimum of single calls, after a warm-up, over `min_reps` calls or `seconds`."""
    warm_until = time.perf_counter() + min(0.5, seconds / 4)
    for _ in range(3):
        await call()
    while time.perf_counter() < warm_until:
        await call()
    samples: list[int] = []
    stop = time.perf_counter() + seconds
    while len(samples) < min_reps or (time.perf_counter() < stop and len(samples) < 200_000):
        start = time.perf_counter_ns()
        await call()
        samples.append(time.perf_counter_ns() - start)
    return {
        "median_ns": statistics.median(samples),
        "min_ns": min(samples),
        "reps": len(samples),
    }


def check_task(task: Task, expected: dict[str, Any], case: str) -> None:
    """The task came through whole: its id, history and artifacts, and a known state."""
    got = (task.id, len(task.history), len(task.artifacts))
    want = (expected["id"], len(expected.get("history", [])), len(expected.get("artifacts", [])))
    if got != want or task.status.state == 0:
        raise BenchError(f"{case}: the SDK decoded {got} in state {task.status.state}, expected {want}")


async def measures(
    case: str, kind: str, body: bytes
) -> list[tuple[str, Callable[[], Awaitable[Any]]]]:
    """The functions to time for one case, after checking what the SDK makes of the body."""
    text = body.decode("utf-8")
    if kind == "stream":
        client = await make_client(body, "text/event-stream")
        events = sse_data(text)

        async def sdk_client() -> int:
            count = 0
            async for _event in client.send_message(message_request()):
                count += 1
            return count

        got = await sdk_client()
        if got != len(events):
            raise BenchError(f"{case}: the SDK yielded {got} events, the body has {len(events)}")

        async def json_loads() -> None:
            for data in events:
                json.loads(data)

        async def sdk_parse() -> None:
            for data in events:
                parse_lenient(json.loads(data)["result"], StreamResponse())

        return [("sdk_client", sdk_client), ("json_loads", json_loads), ("sdk_parse", sdk_parse)]

    client = await make_client(body, "application/json")
    request = GetTaskRequest(id="bench")

    async def get_task() -> Task:
        return await client.get_task(request)

    async def json_loads() -> None:
        json.loads(body)

    if kind == "get_task_error":

        async def sdk_client_error() -> None:
            try:
                await get_task()
            except TaskNotFoundError:
                return
            raise BenchError(f"{case}: the SDK did not raise TaskNotFoundError")

        await sdk_client_error()
        return [("sdk_client", sdk_client_error), ("json_loads", json_loads)]

    check_task(await get_task(), json.loads(body)["result"], case)

    async def sdk_parse() -> None:
        parse_lenient(json.loads(body)["result"], Task())

    return [("sdk_client", get_task), ("json_loads", json_loads), ("sdk_parse", sdk_parse)]


async def run(bodies: Path, only: set[str], min_reps: int, seconds: float) -> None:
    meta = {
        "kind": "meta",
        "sdk": "a2a-sdk",
        "version": importlib.metadata.version("a2a-sdk"),
        "protobuf": importlib.metadata.version("protobuf"),
        "protobuf_backend": api_implementation.Type(),
        "httpx": importlib.metadata.version("httpx"),
        "python": platform.python_version(),
    }
    print(json.dumps(meta), flush=True)
    for case, file, kind in CASES:
        if only and case not in only:
            continue
        path = bodies / file
        try:
            body = path.read_bytes()
        except OSError as e:
            raise BenchError(f"{case}: cannot read {path}: {e}") from e
        for measure, call in await measures(case, kind, body):
            timing = await time_calls(call, min_reps, seconds)
            line = {"kind": "timing", "case": case, "measure": measure, "bytes": len(body)}
            print(json.dumps({**line, **timing}), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bodies", type=Path, help="the directory the Rust bench wrote")
    parser.add_argument("--case", action="append", default=[], help="only this case (repeatable)")
    parser.add_argument("--min-reps", type=int, default=15, help="at least this many calls")
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="time budget per case and measure"
    )
    args = parser.parse_args()
    try:
        asyncio.run(run(args.bodies, set(args.case), args.min_reps, args.seconds))
    except BenchError as e:
        print(f"decode_bench.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
