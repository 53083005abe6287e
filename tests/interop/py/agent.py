"""A hello-world A2A agent written with a2a-sdk 1.3.0's public server API, for the interop test.

    python agent.py PORT_FILE
    python agent.py --grpc PORT_FILE    # and gRPC (the SDK's GrpcHandler) on a second port

Binds 127.0.0.1 on a free port, writes the port number to PORT_FILE once it is listening, and
serves until it is killed:

- GET /.well-known/agent-card.json: the agent card, which lists two JSON-RPC interfaces at "/",
  A2A 1.0 and A2A 0.3, then an HTTP+JSON (REST) one, A2A 1.0, at "/" too (the SDK then also
  writes the v0.3 card members: url, protocolVersion, preferredTransport); streaming, push
  notifications and an extended card are on;
- POST /: JSON-RPC, handled by the SDK's DefaultRequestHandler over an in-memory task store and
  an in-memory push-notification config store (no sender: nothing is ever delivered), with the
  SDK's v0.3 compatibility layer on (`enable_v0_3_compat`): a call with a v0.3 method name
  (`message/send`, ...) is served as A2A 0.3, and a missing A2A-Version header means 0.3;
- the REST routes of A2A 1.0 (`create_rest_routes`: POST /message:send, GET /tasks/{id}, ...,
  each also under /{tenant}), served by the same handler; they refuse a call without
  `A2A-Version: 1.0`.

With --grpc, the same handler also serves gRPC (the SDK's GrpcHandler on a grpcio server, A2A
1.0) on another free port of 127.0.0.1, and the card lists that GRPC interface last (`host:port`).

Every message starts a task that goes submitted -> working -> one "greeting" artifact holding
"Hello World" -> completed, the shape the official hello-world sample has; the text
FAIL_TRIGGER makes the agent raise InternalError once it is working, and a call through a
tenant's route puts {"tenant": ...} in the artifact's metadata. Task lookups, cancellation and
listing are the SDK's own behaviour, which is what the Rust clients are tested against.
"""

import asyncio
import sys

from starlette.applications import Starlette

from a2a.helpers import get_message_text, new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import (
    create_agent_card_routes,
    create_jsonrpc_routes,
    create_rest_routes,
)
from a2a.server.tasks import (
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
)
from a2a.utils.errors import InternalError, UnsupportedOperationError

from serving import EXTENDED_SKILL, HELLO_SKILL, serve_app  # noqa: F401 (serve_app: the bench's SDK agents import it from here)

# The message text that makes the agent fail after it has started working (a stream has begun).
FAIL_TRIGGER = 'fail while working'


class HelloExecutor(AgentExecutor):
    """Answers every message with a task whose one artifact says hello."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        await updater.start_work()
        if get_message_text(context.message) == FAIL_TRIGGER:
            raise InternalError('the hello agent broke down while working')
        # A call through a tenant's route (REST `/{tenant}/...`) is answered the same way; the
        # artifact's metadata says which tenant the SDK handed to the agent.
        metadata = {'tenant': context.tenant} if context.tenant else None
        await updater.add_artifact(
            [new_text_part('Hello World')], name='greeting', metadata=metadata
        )
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        # Tasks complete before a cancel can reach them; the SDK answers TaskNotCancelable
        # for a finished task before calling this.
        raise UnsupportedOperationError('the hello agent finishes before it can be canceled')


def card(port: int, extended: bool = False, grpc_port: int | None = None) -> AgentCard:
    """The public card, or the extended one (GetExtendedAgentCard), which has one more skill;
    with `grpc_port`, a GRPC interface last."""
    url = f'http://127.0.0.1:{port}/'
    skills = [AgentSkill(**HELLO_SKILL)]
    if extended:
        skills.append(AgentSkill(**EXTENDED_SKILL))
    return AgentCard(
        name='Hello World Agent' + (' (extended)' if extended else ''),
        description='The interop test agent: answers every message with hello',
        supported_interfaces=[
            AgentInterface(url=url, protocol_binding='JSONRPC', protocol_version='1.0'),
            AgentInterface(url=url, protocol_binding='JSONRPC', protocol_version='0.3'),
            AgentInterface(url=url, protocol_binding='HTTP+JSON', protocol_version='1.0'),
        ]
        + (
            [AgentInterface(url=f'127.0.0.1:{grpc_port}', protocol_binding='GRPC',
                            protocol_version='1.0')]
            if grpc_port else []
        ),
        version='1.0.0',
        capabilities=AgentCapabilities(
            streaming=True, push_notifications=True, extended_agent_card=True
        ),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=skills,
    )


def app(port: int) -> Starlette:
    """The agent's whole app: the card routes, JSON-RPC at "/" (1.0 and 0.3) and the REST routes
    (1.0), over fresh in-memory stores. The request differential
    (tests/differential-requests/sdk.py) serves it in process."""
    agent_card = card(port)
    handler = DefaultRequestHandler(
        agent_executor=HelloExecutor(),
        task_store=InMemoryTaskStore(),
        agent_card=agent_card,
        push_config_store=InMemoryPushNotificationConfigStore(),
        extended_agent_card=card(port, extended=True),
    )
    return Starlette(
        routes=create_agent_card_routes(agent_card)
        + create_jsonrpc_routes(handler, '/', enable_v0_3_compat=True)
        + create_rest_routes(handler)
    )


async def serve(port_file: str) -> None:
    await serve_app(app, port_file, 'agent.py: a2a-sdk hello agent')


async def serve_with_grpc(port_file: str) -> None:
    """`serve`, and the same handler over gRPC on a second port, which the card lists. The gRPC
    server starts first (its port goes in the card); the cards are made before the HTTP port is
    known and their URLs set once it is (they are the handler's own objects)."""
    import grpc

    from a2a.server.request_handlers import GrpcHandler
    from a2a.types import a2a_pb2_grpc

    server = grpc.aio.server()
    grpc_port = server.add_insecure_port('127.0.0.1:0')
    public, extended = card(0, grpc_port=grpc_port), card(0, True, grpc_port=grpc_port)
    handler = DefaultRequestHandler(
        agent_executor=HelloExecutor(),
        task_store=InMemoryTaskStore(),
        agent_card=public,
        push_config_store=InMemoryPushNotificationConfigStore(),
        extended_agent_card=extended,
    )
    a2a_pb2_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler), server)
    await server.start()

    def make(port: int) -> Starlette:
        for made in (public, extended):
            for interface in made.supported_interfaces:
                if interface.protocol_binding != 'GRPC':
                    interface.url = f'http://127.0.0.1:{port}/'
        return Starlette(
            routes=create_agent_card_routes(public)
            + create_jsonrpc_routes(handler, '/', enable_v0_3_compat=True)
            + create_rest_routes(handler)
        )

    await serve_app(make, port_file, f'agent.py: a2a-sdk hello agent, gRPC on 127.0.0.1:{grpc_port}')


if __name__ == '__main__':
    args = sys.argv[1:]
    if args[:1] == ['--grpc'] and len(args) == 2:
        asyncio.run(serve_with_grpc(args[1]))
    elif len(args) == 1:
        asyncio.run(serve(args[0]))
    else:
        sys.exit('usage: agent.py [--grpc] PORT_FILE')
