"""A hello agent written with a2a-sdk 0.3.26's server API (the last 0.3 release): an agent that
speaks A2A 0.3 only, for the interop test's Rust client written against 1.0 (`AnyClient`).

    python agent_v0_3.py PORT_FILE          # in the virtualenv of requirements-v0.3.txt
    python agent_v0_3.py --rest PORT_FILE   # 0.3's HTTP+JSON binding only

Binds 127.0.0.1 on a free port, writes the port number to PORT_FILE once it is listening, and
serves until it is killed: its 0.3 card (`url`, `protocolVersion` 0.3.0, `preferredTransport`
JSONRPC; streaming, push notifications and the authenticated extended card on) and JSON-RPC at
"/" (`A2AStarletteApplication` over the SDK's `DefaultRequestHandler`, in-memory task and
push-config stores, no sender: nothing is ever delivered). Every message starts a task that goes
submitted -> working -> one "greeting" artifact holding "Hello World" -> completed.

With `--rest` the same handler is served over 0.3's HTTP+JSON binding alone
(`A2ARESTFastAPIApplication`: `/v1/message:send`, `/v1/tasks/{id}`, ...; the card's
`preferredTransport` HTTP+JSON): an agent a 0.3 client can reach over REST only. Its errors are
that server's: an HTTP status and `{"message": ...}`, nothing naming the error.
"""

import asyncio
import sys

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.apps import A2ARESTFastAPIApplication, A2AStarletteApplication
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import (
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types import AgentCapabilities, AgentCard, AgentSkill, Part, TextPart
from a2a.utils import new_task
from a2a.utils.errors import ServerError
from a2a.types import UnsupportedOperationError

from serving import EXTENDED_SKILL, HELLO_SKILL, serve_app


class HelloExecutor(AgentExecutor):
    """Answers every message with a task whose one artifact says hello."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        if task is None:
            task = new_task(context.message)
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        await updater.start_work()
        await updater.add_artifact([Part(root=TextPart(text='Hello World'))], name='greeting')
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise ServerError(error=UnsupportedOperationError())


def card(port: int, extended: bool = False, rest: bool = False) -> AgentCard:
    skills = [AgentSkill(**HELLO_SKILL)]
    if extended:
        skills.append(AgentSkill(**EXTENDED_SKILL))
    return AgentCard(
        name='Hello World Agent 0.3' + (' (extended)' if extended else ''),
        description='The interop test agent on a2a-sdk 0.3.26',
        url=f'http://127.0.0.1:{port}/',
        version='1.0.0',
        capabilities=AgentCapabilities(streaming=True, push_notifications=True),
        supports_authenticated_extended_card=True,
        preferred_transport='HTTP+JSON' if rest else 'JSONRPC',
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=skills,
    )


def app(port: int, rest: bool = False):
    handler = DefaultRequestHandler(
        agent_executor=HelloExecutor(),
        task_store=InMemoryTaskStore(),
        push_config_store=InMemoryPushNotificationConfigStore(),
    )
    if rest:
        return A2ARESTFastAPIApplication(
            agent_card=card(port, rest=True),
            http_handler=handler,
            extended_agent_card=card(port, extended=True, rest=True),
        ).build()
    return A2AStarletteApplication(
        agent_card=card(port),
        http_handler=handler,
        extended_agent_card=card(port, extended=True),
    ).build()


if __name__ == '__main__':
    args = sys.argv[1:]
    rest = args[:1] == ['--rest']
    if rest:
        args = args[1:]
    if len(args) != 1:
        sys.exit('usage: agent_v0_3.py [--rest] PORT_FILE')
    label = 'agent_v0_3.py: a2a-sdk 0.3.26 hello agent' + (' (HTTP+JSON)' if rest else '')
    asyncio.run(serve_app(lambda port: app(port, rest), args[0], label))
