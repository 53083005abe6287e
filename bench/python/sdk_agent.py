"""The interop test's a2a-sdk 1.3.0 agent (tests/interop/py/agent.py: the same app, the same SDK
code), served with TCP_NODELAY on its connections, for the load bench (bench/serve-bench.sh with
SDK_NODELAY=1).

    python sdk_agent.py PORT_FILE

Why: agent.py makes its listening socket with `socket.socket(AF_INET, SOCK_STREAM)`, whose
`proto` is 0; asyncio turns Nagle off (TCP_NODELAY) only on sockets whose proto is IPPROTO_TCP
(`asyncio.base_events._set_nodelay`), so agent.py's connections keep Nagle on. uvicorn writes a
reply's head and body in two sends; with Nagle the body waits for the ACK of the head, which a
keep-alive client delays (Linux: about 40 ms). Every request after the first on a connection
then takes 40 ms or more, whatever the SDK does (measured: 44 ms per card GET on one connection,
1.5 ms with the client quick-acking). A single-process `uvicorn.run(app, host=..., port=...)`
gets its socket from getaddrinfo (proto IPPROTO_TCP) and so has TCP_NODELAY. This launcher
serves agent.py's `app` with agent.py's `serve_app`, asking it for proto IPPROTO_TCP, and is
otherwise unchanged.
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'interop', 'py'))
import agent  # noqa: E402: tests/interop/py/agent.py


async def serve(port_file: str) -> None:
    await agent.serve_app(
        agent.app, port_file, 'sdk_agent.py: a2a-sdk hello agent (agent.py, TCP_NODELAY)', nodelay=True
    )


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: sdk_agent.py PORT_FILE')
    asyncio.run(serve(sys.argv[1]))
