"""A real A2A 0.3 client, a2a-sdk 0.3.26 (the last 0.3 release), calling the Rust interop agent.

    python client_v0_3.py URL           # in the virtualenv of requirements-v0.3.txt (venv.sh 0.3)
    python client_v0_3.py --rest URL    # the same over 0.3's HTTP+JSON binding (RestTransport)

The agent (tests/interop/src/bin/interop-agent.rs) is one a2a-agent request handler serving
A2A 1.0 and, through the generated conversions, 0.3. This client knows only 0.3: it reads the
card as a 0.3 card (its `url`, `preferredTransport`, `protocolVersion`), calls the 0.3 JSON-RPC
methods through the SDK's public client (`ClientFactory`, `Client`), and the methods that client
has no call for (`tasks/pushNotificationConfig/list` and `/delete`, a request without a message)
over plain HTTP, each reply parsed by the SDK's own 0.3 types (`a2a.types`). Every result and
error is checked as a 0.3 SDK user sees it. Prints one line per step; exits 1 when one failed.

With `--rest` the client is made for 0.3's HTTP+JSON binding only (`supported_transports`), so
the SDK takes the card's HTTP+JSON interface and its `RestTransport` (`/v1/message:send`, ...,
the ProtoJSON of 0.3's proto, parsed strictly by the SDK's `a2a_pb2`); errors come as
`A2AClientHTTPError` with the HTTP status; the push-config list and delete go over plain HTTP
(`GET` and `DELETE /v1/tasks/{id}/pushNotificationConfigs[/{configId}]`), parsed with `a2a_pb2`.
"""

import asyncio
import json
import sys
import uuid

import httpx

from steps import StepFailed, ensure, step, summary

from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.client.errors import A2AClientHTTPError, A2AClientJSONRPCError
from a2a.grpc import a2a_pb2
from google.protobuf import empty_pb2, json_format
from a2a.types import (
    DeleteTaskPushNotificationConfigResponse,
    GetTaskPushNotificationConfigParams,
    JSONRPCErrorResponse,
    ListTaskPushNotificationConfigResponse,
    Message,
    Part,
    PushNotificationConfig,
    Role,
    SendMessageResponse,
    Task,
    TaskArtifactUpdateEvent,
    TaskIdParams,
    TaskPushNotificationConfig,
    TaskQueryParams,
    TaskState,
    TaskStatusUpdateEvent,
    TextPart,
    TransportProtocol,
)

# The text that makes the Rust agent answer with its own error, QuotaExceeded (code -32050).
QUOTA_TRIGGER = 'use up my quota'

# The webhook the push-config steps register; nothing listens there, nothing is ever sent.
WEBHOOK_URL = 'http://127.0.0.1:9/a2a-webhook'


async def webhook():
    """A webhook on 127.0.0.1 that records each POST's headers and JSON body: what a 0.3
    receiver gets. Returns the server, its URL and the list it fills."""
    received = []

    async def handle(reader, writer):
        try:
            head = (await reader.readuntil(b'\r\n\r\n')).decode('latin-1').split('\r\n')
            headers = dict(
                (k.strip().lower(), v.strip())
                for k, v in (line.split(':', 1) for line in head[1:] if ':' in line)
            )
            body = await reader.readexactly(int(headers.get('content-length', '0')))
            received.append((headers, json.loads(body)))
            writer.write(b'HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')
            await writer.drain()
        finally:
            writer.close()

    server = await asyncio.start_server(handle, '127.0.0.1', 0)
    port = server.sockets[0].getsockname()[1]
    return server, f'http://127.0.0.1:{port}/a2a-0.3-hook', received


def message(message_id, text):
    return Message(
        role=Role.user, message_id=message_id, parts=[Part(root=TextPart(text=text))]
    )


def artifact_text(task):
    return ''.join(p.root.text for a in task.artifacts for p in a.parts if p.root.kind == 'text')


async def expect_code(call, code, status=None):
    """The error the SDK raises for `call`: over JSON-RPC one that carries `code`; over REST
    (`status` given) an A2AClientHTTPError with that HTTP status."""
    try:
        result = await call
    except A2AClientJSONRPCError as e:
        ensure(status is None, f'a JSON-RPC error over REST: {e.error}')
        ensure(e.error.code == code, f'error code {e.error.code}, expected {code}: {e.error}')
        return f'A2AClientJSONRPCError {e.error.code}: {e.error.message!r}'
    except A2AClientHTTPError as e:
        ensure(status is not None, f'an HTTP error over JSON-RPC: {e}')
        ensure(e.status_code == status, f'HTTP {e.status_code}, expected {status}: {e}')
        return f'A2AClientHTTPError {e.status_code} (the JSON-RPC code {code} over REST)'
    raise StepFailed(f'returned {result!r} instead of raising error {code}')


async def rpc(http, url, method, params):
    """One JSON-RPC call over plain HTTP (no A2A-Version: a 0.3 client sends none)."""
    body = {'jsonrpc': '2.0', 'id': str(uuid.uuid4()), 'method': method, 'params': params}
    reply = await http.post(url, json=body)
    ensure(reply.status_code == 200, f'HTTP {reply.status_code}: {reply.text}')
    return reply.json()


# The HTTP status of each error over REST: the error table's, as a2a-sdk 1.3.0 answers its 0.3
# REST clients (0.3.26's own server said 409 for -32002; the client reads any 4xx as an error).
HTTP_STATUS = {-32001: 404, -32002: 400, -32004: 400, -32050: 429, -32602: 400}


async def main(url, rest):
    http = httpx.AsyncClient(timeout=20)
    status = (lambda code: HTTP_STATUS[code]) if rest else (lambda code: None)
    card = await A2ACardResolver(http, url).get_agent_card()

    async def check_card():
        ensure(card.name == 'Rust Interop Agent', f'card name {card.name!r}')
        ensure(card.protocol_version.startswith('0.3'), f'protocolVersion {card.protocol_version!r}')
        ensure(card.preferred_transport == 'JSONRPC', f'preferredTransport {card.preferred_transport!r}')
        ensure(card.url.rstrip('/') == url.rstrip('/'), f'url {card.url!r}')
        ensure(card.capabilities.streaming, 'the card does not declare streaming')
        ensure(card.capabilities.push_notifications, 'the card does not declare push notifications')
        ensure(card.supports_authenticated_extended_card, 'no authenticated extended card declared')
        others = [(i.transport, i.url) for i in card.additional_interfaces or []]
        ensure([t for t, _ in others] == ['JSONRPC', 'HTTP+JSON'], f'additionalInterfaces {others}')
        return f'{card.name!r}, {card.preferred_transport} {card.protocol_version} at {card.url}'

    await step('agent card (A2ACardResolver, the 0.3 AgentCard model)', check_card())

    transports = [TransportProtocol.http_json] if rest else [TransportProtocol.jsonrpc]

    def config(streaming):
        return ClientConfig(streaming=streaming, httpx_client=http, supported_transports=transports)

    unary = ClientFactory(config(False)).create(card)
    streaming = ClientFactory(config(True)).create(card)
    tasks = {}

    async def check_transport():
        name = type(unary._transport).__name__
        wanted = 'RestTransport' if rest else 'JsonRpcTransport'
        ensure(name == wanted, f'the SDK chose {name}')
        return f'the SDK speaks 0.3 through its {name}'

    await step('ClientFactory picks the transport for the card', check_transport())

    async def send():
        events = [e async for e in unary.send_message(message('py03-1', 'hi from 0.3'))]
        ensure(len(events) == 1, f'{len(events)} responses, expected 1')
        task, update = events[0]
        ensure(isinstance(task, Task) and update is None, f'response {events[0]!r}')
        ensure(task.status.state == TaskState.completed, f'state {task.status.state}')
        text = artifact_text(task)
        ensure(text == 'Hello from Rust: hi from 0.3', f'artifact text {text!r}')
        tasks['unary'] = task.id
        return f'task {task.id} {task.status.state.value}, artifact {text!r}'

    await step('send_message (message/send)', send())

    async def get():
        task = await unary.get_task(TaskQueryParams(id=tasks['unary'], history_length=10))
        ensure(task.id == tasks['unary'], f'task id {task.id!r}')
        ensure(task.history and task.history[0].message_id == 'py03-1', f'history {task.history}')
        ensure(task.history[0].role == Role.user, f'role {task.history[0].role}')
        return f'task {task.id} {task.status.state.value}, {len(task.history)} history message(s)'

    await step('get_task (tasks/get)', get())

    await step(
        'get_task of an unknown id raises -32001 (TaskNotFoundError)',
        expect_code(unary.get_task(TaskQueryParams(id='no-such-task')), -32001, status(-32001)),
    )
    await step(
        'cancel_task of a completed task raises -32002 (TaskNotCancelableError)',
        expect_code(unary.cancel_task(TaskIdParams(id=tasks['unary'])), -32002, status(-32002)),
    )

    async def quota(client, message_id):
        return await expect_code(
            anext(client.send_message(message(message_id, QUOTA_TRIGGER))), -32050, status(-32050)
        )

    await step("send_message answered with the agent's own error (-32050)", quota(unary, 'py03-2'))

    async def stream():
        kinds = []
        async for task, update in streaming.send_message(message('py03-3', 'stream to 0.3')):
            tasks['stream'] = task.id
            if update is None:
                kinds.append(f'task {task.status.state.value}')
            elif isinstance(update, TaskStatusUpdateEvent):
                kinds.append(f'status {update.status.state.value}{" final" if update.final else ""}')
            elif isinstance(update, TaskArtifactUpdateEvent):
                kinds.append(f'artifact {update.artifact.parts[0].root.text!r}')
            else:
                kinds.append(f'other {update!r}')
        expected = [
            'task submitted',
            'status working',
            "artifact 'Hello from Rust: stream to 0.3'",
            'status completed final',
        ]
        ensure(kinds == expected, f'events {kinds}, expected {expected}')
        return f'{len(kinds)} events: {", ".join(kinds)}'

    await step('send_message streaming (message/stream over SSE)', stream())
    await step(
        "streaming send_message refused with the agent's own error",
        quota(streaming, 'py03-4'),
    )

    async def resubscribe():
        return await expect_code(
            anext(streaming.resubscribe(TaskIdParams(id=tasks['stream']))), -32004, status(-32004)
        )

    await step('resubscribe to a completed task raises -32004 (tasks/resubscribe)', resubscribe())

    async def pushed():
        # The config comes with the message (the SDK's `push_notification_configs`): set over
        # 0.3, so its notifications come in 0.3's shape, the task as it stands after each event.
        server, hook, received = await webhook()
        pushing = ClientFactory(
            ClientConfig(
                streaming=False,
                httpx_client=http,
                supported_transports=transports,
                push_notification_configs=[
                    PushNotificationConfig(id='py03-hook', url=hook, token='py03-hook-token')
                ],
            )
        ).create(card)
        try:
            events = [e async for e in pushing.send_message(message('py03-5', 'push to 0.3'))]
            task_id = events[0][0].id
            for _ in range(200):
                if any(body.get('status', {}).get('state') == 'completed' for _, body in received):
                    break
                await asyncio.sleep(0.05)
        finally:
            server.close()
        ensure(received, 'no notification arrived')
        states = []
        for headers, body in received:
            task = Task.model_validate(body)
            ensure(task.id == task_id, f'task {task.id}, expected {task_id}')
            ensure(body.get('kind') == 'task', f'not a 0.3 task: {body}')
            token = headers.get('x-a2a-notification-token')
            ensure(token == 'py03-hook-token', f'token {token!r}')
            states.append(task.status.state.value)
        ensure(states[-1] == 'completed', f'states {states}')
        text = artifact_text(task)
        ensure(text == 'Hello from Rust: push to 0.3', f'artifact text {text!r}')
        return f'{len(states)} notification(s), each a 0.3 Task ({", ".join(states)}), with the token'

    await step('push notifications reach a 0.3 webhook as 0.3 tasks', pushed())

    config = TaskPushNotificationConfig(
        task_id=tasks.get('unary', ''),
        push_notification_config=PushNotificationConfig(
            id='py03-push-1', url=WEBHOOK_URL, token='py03-token'
        ),
    )

    async def set_config():
        got = await unary.set_task_callback(config)
        ensure(got.task_id == config.task_id, f'task id {got.task_id!r}')
        pushed = got.push_notification_config
        ensure(pushed.id == 'py03-push-1' and pushed.url == WEBHOOK_URL, f'config {pushed}')
        ensure(pushed.token == 'py03-token', f'token {pushed.token!r}')
        return f'config {pushed.id} for task {got.task_id} at {pushed.url}'

    await step('set_task_callback (tasks/pushNotificationConfig/set)', set_config())

    async def get_config():
        got = await unary.get_task_callback(
            GetTaskPushNotificationConfigParams(
                id=config.task_id, push_notification_config_id='py03-push-1'
            )
        )
        ensure(got.push_notification_config.url == WEBHOOK_URL, f'config {got}')
        return f'config {got.push_notification_config.id}'

    await step('get_task_callback (tasks/pushNotificationConfig/get)', get_config())

    rest_url = next(
        (i.url for i in card.additional_interfaces or [] if i.transport == 'HTTP+JSON'), ''
    ).rstrip('/')
    configs_url = f'{rest_url}/v1/tasks/{config.task_id}/pushNotificationConfigs'

    async def list_configs(want):
        if rest:
            reply = await http.get(configs_url)
            ensure(reply.status_code == 200, f'HTTP {reply.status_code}: {reply.text}')
            parsed = json_format.ParseDict(
                reply.json(), a2a_pb2.ListTaskPushNotificationConfigResponse()
            )
            ids = [c.push_notification_config.id for c in parsed.configs]
            ensure(ids == want, f'configs {ids}, expected {want}')
            return f'{len(ids)} config(s), parsed as a2a_pb2.ListTaskPushNotificationConfigResponse'
        reply = await rpc(http, card.url, 'tasks/pushNotificationConfig/list', {'id': config.task_id})
        parsed = ListTaskPushNotificationConfigResponse.model_validate(reply).root
        ensure(not isinstance(parsed, JSONRPCErrorResponse), f'error {reply}')
        ids = [c.push_notification_config.id for c in parsed.result]
        ensure(ids == want, f'configs {ids}, expected {want}')
        return f'{len(ids)} config(s), parsed as ListTaskPushNotificationConfigResponse'

    await step('list the push configs', list_configs(['py03-push-1']))

    async def delete_config():
        if rest:
            reply = await http.delete(f'{configs_url}/py03-push-1')
            ensure(reply.status_code == 200, f'HTTP {reply.status_code}: {reply.text}')
            json_format.ParseDict(reply.json(), empty_pb2.Empty())
            ensure(reply.json() == {}, f'body {reply.text}')
            return 'HTTP 200 {} (google.protobuf.Empty)'
        reply = await rpc(
            http,
            card.url,
            'tasks/pushNotificationConfig/delete',
            {'id': config.task_id, 'pushNotificationConfigId': 'py03-push-1'},
        )
        parsed = DeleteTaskPushNotificationConfigResponse.model_validate(reply).root
        ensure(not isinstance(parsed, JSONRPCErrorResponse), f'error {reply}')
        ensure(parsed.result is None, f'result {parsed.result!r}')
        return 'result null, parsed as DeleteTaskPushNotificationConfigResponse'

    await step('delete the push config', delete_config())
    await step('list the push configs after the delete', list_configs([]))

    async def invalid_params():
        if rest:
            reply = await http.post(f'{rest_url}/v1/message:send', json={})
            ensure(reply.status_code == 400, f'HTTP {reply.status_code}: {reply.text}')
            return f'HTTP 400 {reply.json()["error"]["message"]!r}'
        reply = await rpc(http, card.url, 'message/send', {})
        parsed = SendMessageResponse.model_validate(reply).root
        ensure(isinstance(parsed, JSONRPCErrorResponse), f'not an error: {reply}')
        ensure(parsed.error.code == -32602, f'error {parsed.error}')
        return f'-32602 {parsed.error.message!r}, parsed as SendMessageResponse'

    await step('a send without a message is refused as invalid params', invalid_params())

    async def extended():
        got = await unary.get_card()
        skills = [s.id for s in got.skills]
        ensure('greet_by_name' in skills, f'skills {skills}')
        ensure(got.url.rstrip('/') == url.rstrip('/'), f'url {got.url!r}')
        return f'{got.name!r} with skills {skills} (agent/getAuthenticatedExtendedCard)'

    await step('get_card: the authenticated extended card', extended())

    await http.aclose()
    summary('client_v0_3.py' + (' --rest' if rest else ''), 'the Rust agent (a2a-sdk 0.3.26)')


if __name__ == '__main__':
    args = sys.argv[1:]
    rest = args[:1] == ['--rest']
    if len(args) != 1 + rest:
        sys.exit('usage: client_v0_3.py [--rest] URL')
    asyncio.run(main(args[-1], rest))
