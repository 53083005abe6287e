"""The reference side of the request differential: a2a-sdk 1.3.0's JSON-RPC server, in process.

`SdkServer` builds the SDK's own Starlette app (the same public API as tests/interop/py/agent.py:
DefaultRequestHandler over in-memory stores, routes from create_jsonrpc_routes, v0.3 compatibility
on) and posts request bodies to it through httpx's ASGI transport: no socket, no network.
`outcome()` reduces the SDK's answer to what the differential compares: refused (-32600 or
-32602: the SDK would not read the request) or accepted (a result, or any other error, which
means the request was read and the method ran).
"""

import json

import httpx
from starlette.applications import Starlette

from a2a.helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_jsonrpc_routes
from a2a.server.tasks import (
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from a2a.utils.errors import UnsupportedOperationError

REFUSING_CODES = (-32600, -32602)


class HelloExecutor(AgentExecutor):
    """Every message becomes a task that completes with one artifact."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        await updater.start_work()
        await updater.add_artifact([new_text_part('Hello World')], name='greeting')
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise UnsupportedOperationError('the hello agent finishes before it can be canceled')


def _card() -> AgentCard:
    # Every optional capability on, so that a method the card lacks never answers in place of the
    # params check (the SDK checks params first anyway; this keeps accepted answers informative).
    return AgentCard(
        name='differential',
        description='the request differential agent',
        supported_interfaces=[
            AgentInterface(url='http://sdk/', protocol_binding='JSONRPC', protocol_version='1.0')
        ],
        version='1.0.0',
        capabilities=AgentCapabilities(
            streaming=True, push_notifications=True, extended_agent_card=True
        ),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[AgentSkill(id='hello', name='hello', description='hello', tags=['hello'])],
    )


class SdkServer:
    """The SDK's JSON-RPC app and an in-process client for it."""

    def __init__(self) -> None:
        card = _card()
        handler = DefaultRequestHandler(
            agent_executor=HelloExecutor(),
            task_store=InMemoryTaskStore(),
            agent_card=card,
            push_config_store=InMemoryPushNotificationConfigStore(),
        )
        app = Starlette(routes=create_jsonrpc_routes(handler, '/', enable_v0_3_compat=True))
        self.client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url='http://sdk', timeout=30
        )

    async def post(self, spec: str, body: object) -> dict:
        """Sends one request body; returns the JSON-RPC response (the first event of a stream).

        v1 requests carry `A2A-Version: 1.0`; v0.3 ones carry no version header, which the SDK
        reads as 0.3 (spec §3.6).
        """
        headers = {'content-type': 'application/json'}
        if spec == 'v1':
            headers['A2A-Version'] = '1.0'
        data = body if isinstance(body, str) else json.dumps(body)
        response = await self.client.post('/', content=data, headers=headers)
        text = response.text
        if response.headers.get('content-type', '').startswith('text/event-stream'):
            for line in text.splitlines():
                if line.startswith('data:'):
                    return json.loads(line[5:])
            return {'result': None, 'note': 'empty stream'}
        return json.loads(text)

    async def aclose(self) -> None:
        await self.client.aclose()


def outcome(response: dict) -> dict:
    """{outcome, code, reason} of one SDK response, in the shape classify_request prints."""
    error = response.get('error')
    if not isinstance(error, dict):
        return {'outcome': 'accepted', 'code': None, 'reason': 'result'}
    code = error.get('code')
    reason = str(error.get('message'))
    data = error.get('data')
    if data is not None:
        reason += ' ' + json.dumps(data, sort_keys=True)
    return {
        'outcome': 'refused' if code in REFUSING_CODES else 'accepted',
        'code': code,
        'reason': reason,
    }
