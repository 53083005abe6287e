"""Serving an ASGI app on loopback for the interop and bench agents, whichever a2a-sdk they run
on (no SDK import here: agent.py runs on 1.3.0, agent_v0_3.py on 0.3.26)."""

import asyncio
import socket

import uvicorn

# The hello agents' skills (agent.py on a2a-sdk 1.3.0, agent_v0_3.py on 0.3.26), as the keyword
# arguments of either SDK's AgentSkill: the public card's, and the one only the extended card has.
HELLO_SKILL = dict(
    id='hello_world',
    name='Returns hello world',
    description='answers any message with a greeting',
    tags=['hello world'],
    examples=['hi'],
)
EXTENDED_SKILL = dict(
    id='extended_hello',
    name='Returns hello world, for authenticated callers',
    description='the skill only the extended card lists',
    tags=['hello world'],
)


async def serve_app(make_app, port_file: str, label: str, *, nodelay: bool = False, **config) -> None:
    """Serves `make_app(port)` with uvicorn on 127.0.0.1, on a free port written to `port_file`
    once it listens, until stopped; `config` goes to uvicorn.Config (log_level 'info' unless
    given). With `nodelay`, the listening socket is made with proto IPPROTO_TCP, so that asyncio
    sets TCP_NODELAY on its connections (see bench/python/sdk_agent.py for why). The bench's
    SDK agents (bench/python/) are served by this too."""
    proto = socket.IPPROTO_TCP if nodelay else 0
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(('127.0.0.1', 0))
    port = sock.getsockname()[1]
    config.setdefault('log_level', 'info')
    server = uvicorn.Server(uvicorn.Config(make_app(port), lifespan='off', **config))
    sock.listen(128)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            task.result()  # raises what stopped the server
            return
        await asyncio.sleep(0.02)
    with open(port_file, 'w') as f:
        f.write(f'{port}\n')
    print(f'{label} on 127.0.0.1:{port}', flush=True)
    await task
