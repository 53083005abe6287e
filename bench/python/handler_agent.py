"""The a2a-sdk 1.3.0 side of the request-handler bench (bench/handler-bench.sh): the SDK's
DefaultRequestHandler over one of its task stores, with an executor that answers the two message
id prefixes the bench sends the way examples/tck-agent does.

    python handler_agent.py [--store memory|sqlite:PATH|sqlite-wal:PATH] PORT_FILE

- a message whose id starts with `tck-complete-task` completes its task at once, with an agent
  message "Hello from TCK" as the status message;
- one whose id starts with `tck-input-required` leaves its task waiting in input-required (no
  message), so a later message carrying the task's id continues that task: it joins the task's
  history and the task waits again;
- any other message completes its task (with a note of the id it did not know).

Stores: `memory` is the SDK's InMemoryTaskStore and InMemoryPushNotificationConfigStore;
`sqlite:PATH` its SQLAlchemy DatabaseTaskStore and DatabasePushNotificationConfigStore on one
async engine, `sqlite+aiosqlite:///PATH` with SQLAlchemy's defaults (the file is created with its
tables when missing). `sqlite-wal:PATH` is the same store with each connection set as
a2a-agent's SqliteStore sets its own (`journal_mode=WAL`, `synchronous=NORMAL`; SQLite's and
SQLAlchemy's default is a rollback journal with `synchronous=FULL`, a sync of the file at every
commit): the bench runs it beside the default to tell that setting from the rest of the store.
Push notifications are on as tck-agent has them (a config store and the
SDK's BasePushNotificationSender, which looks the task's configs up on every event; the bench
registers none, so nothing is sent).

Served as sdk_agent.py serves agent.py (agent.py's `serve_app`): uvicorn on 127.0.0.1, a free
port written to PORT_FILE once it listens, TCP_NODELAY on the connections (the socket is made
with proto IPPROTO_TCP; see sdk_agent.py), and no access log (tck-agent logs nothing per request either). JSON-RPC at
"/" and the HTTP+JSON routes, both A2A 1.0.
"""

import argparse
import asyncio
import os
import sys

import httpx
from starlette.applications import Starlette

from a2a.helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import (
    create_agent_card_routes,
    create_jsonrpc_routes,
    create_rest_routes,
)
from a2a.server.tasks import (
    BasePushNotificationSender,
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'interop', 'py'))
import agent  # noqa: E402: tests/interop/py/agent.py (serve_app)


class BenchExecutor(AgentExecutor):
    """Completes the task, or leaves it waiting for input, by the message id's prefix."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        message_id = context.message.message_id if context.message else ''
        if message_id.startswith('tck-input-required'):
            await updater.requires_input()
        elif message_id.startswith('tck-complete-task'):
            await updater.complete(updater.new_agent_message([new_text_part('Hello from TCK')]))
        else:
            note = f'Unhandled messageId prefix: {message_id}'
            await updater.complete(updater.new_agent_message([new_text_part(note)]))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.cancel()


def card(port: int) -> AgentCard:
    url = f'http://127.0.0.1:{port}/'
    return AgentCard(
        name='a2a-sdk handler bench agent',
        description="The SDK's request handler and stores, for bench/handler-bench.sh",
        supported_interfaces=[
            AgentInterface(url=url, protocol_binding='JSONRPC', protocol_version='1.0'),
            AgentInterface(url=url, protocol_binding='HTTP+JSON', protocol_version='1.0'),
        ],
        version='1.0.0',
        capabilities=AgentCapabilities(streaming=True, push_notifications=True),
        default_input_modes=['text'],
        default_output_modes=['text'],
        skills=[
            AgentSkill(
                id='bench',
                name='Handler bench',
                description='Completes a task, or waits for input, by message id prefix',
                tags=['bench'],
            )
        ],
    )


async def open_stores(spec: str):
    """The task store and the push-config store of `spec`, ready to use."""
    if spec == 'memory':
        return InMemoryTaskStore(), InMemoryPushNotificationConfigStore()
    kind, _, path = spec.partition(':')
    if kind in ('sqlite', 'sqlite-wal') and path:
        # Imported here: the memory store needs neither SQLAlchemy nor aiosqlite.
        from sqlalchemy import event
        from sqlalchemy.ext.asyncio import create_async_engine

        from a2a.server.tasks import DatabasePushNotificationConfigStore, DatabaseTaskStore

        engine = create_async_engine(f'sqlite+aiosqlite:///{path}')
        if kind == 'sqlite-wal':

            @event.listens_for(engine.sync_engine, 'connect')
            def _wal(dbapi_connection, _record):
                cursor = dbapi_connection.cursor()
                cursor.execute('PRAGMA journal_mode=WAL')
                cursor.execute('PRAGMA synchronous=NORMAL')
                cursor.close()

        tasks = DatabaseTaskStore(engine)
        configs = DatabasePushNotificationConfigStore(engine)
        await tasks.initialize()
        await configs.initialize()
        return tasks, configs
    raise SystemExit(
        f'handler_agent.py: unknown store {spec!r} (memory, sqlite:PATH or sqlite-wal:PATH)'
    )


async def serve(store: str, port_file: str) -> None:
    tasks, configs = await open_stores(store)

    def app(port: int) -> Starlette:
        agent_card = card(port)
        handler = DefaultRequestHandler(
            agent_executor=BenchExecutor(),
            task_store=tasks,
            agent_card=agent_card,
            push_config_store=configs,
            push_sender=BasePushNotificationSender(httpx.AsyncClient(), configs),
        )
        return Starlette(
            routes=create_agent_card_routes(agent_card)
            + create_jsonrpc_routes(handler, '/')
            + create_rest_routes(handler)
        )

    label = f'handler_agent.py: a2a-sdk agent, {store} store,'
    await agent.serve_app(
        app, port_file, label, nodelay=True, log_level='warning', access_log=False
    )


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument(
        '--store', default='memory', help='memory (default), sqlite:PATH or sqlite-wal:PATH'
    )
    parser.add_argument('port_file', metavar='PORT_FILE')
    args = parser.parse_args()
    asyncio.run(serve(args.store, args.port_file))
