"""The client half of the server/client load bench (issue 20, item 6): a2a-sdk 1.3.0's own client
making SendMessage calls at a fixed concurrency against one agent, for bench/serve-bench.sh.

    python client_bench.py URL [--concurrency 32] [--requests 20000] [--seconds 8]  # or --connections
                               [--warmup 1] [--label sdk-client] [--smoke]

Builds the client the way an SDK user does (`create_client` on the agent's URL: it resolves the
card and picks the JSON-RPC 1.0 transport; `ClientConfig(streaming=False)`), with one
`httpx.AsyncClient` whose pool keeps `--concurrency` connections alive (httpx's default pool keeps
only 20, which at 32 concurrent calls would open and close connections all the time). Then
`--concurrency` asyncio tasks share that client and call `send_message` one after the other, for
min(requests, seconds) after the warm-up. Every reply is checked: one `StreamResponse` holding a
task in TASK_STATE_COMPLETED; anything else (or an exception) is a failure, counted by reason.
Latency is the whole `send_message` call, from the request's encoding to the decoded response.

Prints one JSON line on stdout: label, workload ("client-send"), connections, ok, failed,
failures, seconds, rps, p50_ms, p99_ms (the keys serve_load's --json lines have). Exits 1 when a
call failed.
"""

import argparse
import asyncio
import json
import math
import sys
import time

import httpx
from a2a.client import ClientConfig, create_client
from a2a.helpers import new_text_message
from a2a.types import Role, SendMessageRequest, TaskState

TEXT = 'hello from the load bench'


def quantile_ms(sorted_ns, q):
    """Nearest rank, as serve_load computes it."""
    if not sorted_ns:
        return None
    rank = max(1, min(len(sorted_ns), math.ceil(q * len(sorted_ns))))
    return sorted_ns[rank - 1] / 1e6


async def one(client, n):
    msg = new_text_message(TEXT, role=Role.ROLE_USER)
    msg.message_id = f'bench-{n}'
    events = [e async for e in client.send_message(SendMessageRequest(message=msg))]
    if len(events) != 1:
        return f'{len(events)} responses, expected 1'
    if not events[0].HasField('task'):
        return 'the response holds no task'
    state = events[0].task.status.state
    if state != TaskState.TASK_STATE_COMPLETED:
        return f'task state {TaskState.Name(state)}'
    return None


async def main(args):
    limits = httpx.Limits(
        max_connections=args.concurrency, max_keepalive_connections=args.concurrency
    )
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        client = await create_client(
            args.url, client_config=ClientConfig(streaming=False, httpx_client=http)
        )
        counter = {'n': 0, 'measured': 0}
        samples = []
        failures = {}

        def fail(reason):
            failures[reason] = failures.get(reason, 0) + 1

        async def call(record):
            n = counter['n']
            counter['n'] += 1
            start = time.perf_counter_ns()
            try:
                why = await one(client, n)
            except Exception as e:  # noqa: BLE001: every failure is counted, by its kind
                why = f'{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ""}'
            took = time.perf_counter_ns() - start
            if why is None:
                if record:
                    samples.append(took)
            else:
                fail(why if record else f'warm-up: {why}')

        async def worker(warm_until, start_event, deadline_box):
            while time.perf_counter() < warm_until:
                await call(record=False)
            await start_event.wait()
            while time.perf_counter() < deadline_box[0]:
                if counter['measured'] >= args.requests:
                    break
                counter['measured'] += 1
                await call(record=True)
            return time.perf_counter()

        warm_until = time.perf_counter() + args.warmup
        start_event = asyncio.Event()
        deadline_box = [math.inf]
        workers = [
            asyncio.create_task(worker(warm_until, start_event, deadline_box))
            for _ in range(args.concurrency)
        ]
        # The measure starts when the warm-up is over; a worker still in a warm-up call joins
        # when that call ends (its time is not counted).
        await asyncio.sleep(max(0.0, warm_until - time.perf_counter()))
        start = time.perf_counter()
        deadline_box[0] = start + args.seconds
        start_event.set()
        ends = await asyncio.gather(*workers)
        await client.close()
    seconds = max(ends) - start
    samples.sort()
    failed = sum(failures.values())
    print(
        json.dumps(
            {
                'label': args.label,
                'workload': 'client-send',
                'connections': args.concurrency,
                'ok': len(samples),
                'failed': failed,
                'failures': failures,
                'seconds': seconds,
                'rps': len(samples) / seconds if seconds > 0 else 0.0,
                'p50_ms': quantile_ms(samples, 0.50),
                'p99_ms': quantile_ms(samples, 0.99),
            }
        ),
        flush=True,
    )
    return 1 if failed else 0


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('url')
    parser.add_argument('--concurrency', '--connections', type=int, default=32)
    parser.add_argument('--requests', type=int, default=None)
    parser.add_argument('--seconds', type=float, default=None)
    parser.add_argument('--warmup', type=float, default=None)
    parser.add_argument('--label', default='sdk-client')
    parser.add_argument('--smoke', action='store_true', help='200 calls or 1 s, 0.2 s warm-up')
    args = parser.parse_args()
    defaults = (200, 1.0, 0.2) if args.smoke else (20000, 8.0, 1.0)
    args.requests = args.requests if args.requests is not None else defaults[0]
    args.seconds = args.seconds if args.seconds is not None else defaults[1]
    args.warmup = args.warmup if args.warmup is not None else defaults[2]
    sys.exit(asyncio.run(main(args)))
