"""The official a2a-sdk 1.3.0 client, calling the Rust interop agent, for the interop test.

    python client.py URL            # A2A 1.0 over JSON-RPC: tests/interop/src/bin/interop-agent.rs
    python client.py --rest URL     # A2A 1.0 over HTTP+JSON (REST): the same agent
    python client.py --v0.3 URL     # A2A 0.3: the same agent, through the SDK's 0.3 transport
    python client.py --v0.3 --rest URL   # A2A 0.3 over 0.3's HTTP+JSON binding (/v1/...)
    python client.py --grpc URL     # A2A 1.0 over gRPC: the same agent, the SDK's GrpcTransport

Drives the agent at URL through the SDK's public client API only: create_client resolves the
agent card, then every call goes through the transport the SDK picks for the card's interface
(JSON-RPC by default: its v1 transport for protocolVersion 1.0, its v0.3 compatibility transport
for 0.3, which it picks when the card offers only 0.3: with --v0.3 the client keeps the card's
0.3 interfaces alone, as a client that speaks only 0.3 would, and is created from that card;
with --rest the client is configured for the `HTTP+JSON` binding only
(`ClientConfig.supported_protocol_bindings`), and the SDK picks its RestTransport; with --grpc,
the `GRPC` binding only, on a grpcio channel, and the SDK picks its GrpcTransport), and the
results and exceptions are checked as an SDK user would see them. The SDK user's API is the same
in every mode, so the runs make the same calls, except `list_tasks`, which v0.3 has not got; the
REST run adds what only REST has or what it changes: a tenant's routes, query parameters of
every kind, and how the SDK's REST transport reports the agent's own error and the standard ones.
Prints one line per step; a failed step does not stop the run; exits 1 when one failed.
"""

import asyncio
import sys

from a2a.client import (
    A2ACardResolver,
    A2AClientError,
    ClientCallContext,
    ClientConfig,
    create_client,
)
from a2a.helpers import get_artifact_text, new_text_message
from a2a.types import (
    CancelTaskRequest,
    DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest,
    GetTaskRequest,
    ListTaskPushNotificationConfigsRequest,
    ListTasksRequest,
    Role,
    SendMessageRequest,
    SubscribeToTaskRequest,
    TaskPushNotificationConfig,
    TaskState,
)
from a2a.utils.errors import (
    InvalidParamsError,
    TaskNotCancelableError,
    TaskNotFoundError,
    UnsupportedOperationError,
    VersionNotSupportedError,
)

import grpc
import httpx

from google.rpc import error_details_pb2
from grpc_status import rpc_status

from steps import StepFailed, ensure, step, summary

# The text that makes the Rust agent answer with its own error, QuotaExceeded (code -32050).
QUOTA_TRIGGER = 'use up my quota'

# The webhook the push-config steps register; nothing listens there, nothing is ever sent.
WEBHOOK_URL = 'http://127.0.0.1:9/a2a-webhook'

# The tenant of the REST tenant steps (the request's `tenant`: the `/{tenant}/...` routes).
TENANT = 'acme'

# What the Rust agent sends for its own error over REST (encode_rest_custom_error of
# InteropError::QuotaExceeded { retry_after_secs: 30 }): HTTP 429 and this google.rpc.Status.
QUOTA_STATUS = {
    'error': {
        'code': 429,
        'status': 'RESOURCE_EXHAUSTED',
        'message': 'quota exceeded',
        'details': [
            {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                'reason': 'QUOTA_EXCEEDED',
                'domain': 'InteropError',
                'metadata': {},
            },
            {'@type': 'type.a2a-codegen/InteropError.QuotaExceeded', 'retryAfterSecs': 30},
        ],
    }
}


def message(message_id, text):
    msg = new_text_message(text, role=Role.ROLE_USER)
    msg.message_id = message_id
    return SendMessageRequest(message=msg)


def state_name(state):
    return TaskState.Name(state)


async def main(url, v03, rest, grpc_):
    version = '0.3' if v03 else '1.0'
    binding = 'HTTP+JSON' if rest else 'GRPC' if grpc_ else 'JSONRPC'
    async with httpx.AsyncClient(timeout=20) as http:
        card = await A2ACardResolver(http, url).get_agent_card()
    if v03:
        # The agent serves 1.0 and 0.3 at one URL; the SDK prefers 1.0 when offered both.
        legacy = [i for i in card.supported_interfaces if i.protocol_version.startswith('0.3')]
        del card.supported_interfaces[:]
        card.supported_interfaces.extend(legacy)

    async def check_card():
        ensure(card.name == 'Rust Interop Agent', f'card name {card.name!r}')
        ensure(card.capabilities.streaming, 'the card does not declare streaming')
        ensure(card.capabilities.push_notifications, 'the card does not declare push notifications')
        ensure(card.capabilities.extended_agent_card, 'the card does not declare an extended card')
        # JSON-RPC is the card's first (preferred) interface; the v1 agent lists HTTP+JSON next.
        ensure(
            card.supported_interfaces[0].protocol_binding == 'JSONRPC',
            f'first binding {card.supported_interfaces[0].protocol_binding!r}',
        )
        found = [i for i in card.supported_interfaces if i.protocol_binding == binding]
        ensure(found, f'no {binding} interface in {card.supported_interfaces}')
        iface = found[0]
        ensure(
            iface.protocol_version.startswith(version),
            f'protocol version {iface.protocol_version!r}, expected {version}',
        )
        return f'{card.name!r} v{card.version}, {iface.protocol_binding} {iface.protocol_version} at {iface.url}'

    await step('agent card (A2ACardResolver)', check_card())

    # For REST, the client is told the bindings it may use; the SDK then picks the card's
    # HTTP+JSON interface although JSON-RPC comes first in the card.
    bindings = ['HTTP+JSON'] if rest else ['GRPC'] if grpc_ else []
    agent = card if v03 else url
    channels = {'grpc_channel_factory': grpc.aio.insecure_channel} if grpc_ else {}
    unary = await create_client(
        agent,
        client_config=ClientConfig(
            streaming=False, supported_protocol_bindings=bindings, **channels
        ),
    )
    streaming = await create_client(
        agent,
        client_config=ClientConfig(
            streaming=True, supported_protocol_bindings=bindings, **channels
        ),
    )
    transport = type(unary._transport).__name__  # which of the SDK's transports the card chose
    tasks = {}

    async def check_transport():
        want = (
            'CompatRestTransport' if rest and v03
            else 'RestTransport' if rest
            else 'GrpcTransport' if grpc_
            else 'CompatJsonRpcTransport' if v03
            else 'JsonRpcTransport'
        )
        ensure(transport == want, f'the SDK chose {transport}, expected {want}')
        return f'the SDK speaks {version} through its {transport}'

    await step('create_client picks the transport for the card', check_transport())

    async def send():
        events = [e async for e in unary.send_message(message('py-msg-1', 'hi from Python'))]
        ensure(len(events) == 1, f'{len(events)} responses, expected 1')
        ensure(events[0].HasField('task'), f'no task in {events[0]}')
        task = events[0].task
        ensure(task.status.state == TaskState.TASK_STATE_COMPLETED, f'state {state_name(task.status.state)}')
        text = get_artifact_text(task.artifacts[0])
        ensure(text == 'Hello from Rust: hi from Python', f'artifact text {text!r}')
        tasks['unary'] = task.id
        return f'task {task.id} {state_name(task.status.state)}, artifact {text!r}'

    await step('send_message (SendMessage)', send())

    async def get():
        task = await unary.get_task(GetTaskRequest(id=tasks['unary']))
        ensure(task.id == tasks['unary'], f'task id {task.id!r}')
        ensure(task.history[0].message_id == 'py-msg-1', f'history {task.history}')
        return f'task {task.id} {state_name(task.status.state)}, {len(task.history)} history message(s)'

    await step('get_task (GetTask)', get())

    async def get_unknown():
        try:
            task = await unary.get_task(GetTaskRequest(id='no-such-task'))
        except TaskNotFoundError as e:
            return f'TaskNotFoundError: {e.message!r}'
        raise StepFailed(f'returned {task} instead of raising TaskNotFoundError')

    await step('get_task of an unknown id raises TaskNotFoundError', get_unknown())

    async def cancel():
        try:
            task = await unary.cancel_task(CancelTaskRequest(id=tasks['unary']))
        except TaskNotCancelableError as e:
            return f'TaskNotCancelableError: {e.message!r}'
        raise StepFailed(f'returned {task} instead of raising TaskNotCancelableError')

    await step('cancel_task of a completed task raises TaskNotCancelableError', cancel())

    async def refused_with_custom_error(client, message_id):
        """send_message of the quota trigger: must raise the SDK's error for an unknown code."""
        try:
            events = [e async for e in client.send_message(message(message_id, QUOTA_TRIGGER))]
        except A2AClientError as e:
            if rest:
                return rest_custom_error(e)
            if grpc_:
                return grpc_custom_error(e)
            # a2a-sdk maps the codes of its own table to exception classes; any other code,
            # such as the agent's own -32050, becomes a plain A2AClientError. Its v1 transport
            # puts the code and message in the text; its v0.3 transport only the message. The
            # error's data is not kept by either.
            text = str(e)
            want = 'quota exceeded' if v03 else 'JSON-RPC Error -32050: quota exceeded'
            ensure(text == want, f'A2AClientError text {text!r}, expected {want!r}')
            ensure(type(e) is A2AClientError, f'raised {type(e).__name__}, expected A2AClientError')
            return f'{type(e).__name__}: {text!r}'
        raise StepFailed(f'returned {events} instead of raising')

    def grpc_custom_error(e):
        """What the SDK's gRPC transport makes of the agent's own error: its ErrorInfo is not in
        the A2A domain, so it raises a plain A2AClientError naming the status code and message;
        the status under it (the grpcio error it was raised from) carries the ErrorInfo."""
        ensure(type(e) is A2AClientError, f'raised {type(e).__name__}, expected A2AClientError')
        text = str(e)
        want = 'gRPC Error RESOURCE_EXHAUSTED: quota exceeded'
        ensure(text == want, f'A2AClientError text {text!r}, expected {want!r}')
        status = rpc_status.from_call(e.__cause__)
        ensure(status is not None, 'no grpc-status-details-bin under the error')
        info = error_details_pb2.ErrorInfo()
        ensure(status.details and status.details[0].Unpack(info), f'details {status.details}')
        ensure(
            (info.reason, info.domain) == ('QUOTA_EXCEEDED', 'InteropError'),
            f'ErrorInfo {info}',
        )
        return f'{type(e).__name__}: {text!r}; ErrorInfo {info.reason} in domain {info.domain}'

    def rest_custom_error(e):
        """What the SDK's REST transport makes of the agent's own error: its reason is no A2A
        reason, so it raises a plain A2AClientError saying only the HTTP status (its text is
        httpx's); the Status the agent sent (code, status, message, details) is not on the
        exception, only on the httpx error it was raised from (`__cause__`)."""
        ensure(type(e) is A2AClientError, f'raised {type(e).__name__}, expected A2AClientError')
        text = str(e)
        ensure(text.startswith('HTTP Error 429: '), f'A2AClientError text {text!r}')
        ensure(e.data is None, f'A2AClientError.data {e.data!r}')
        cause = e.__cause__
        ensure(
            isinstance(cause, httpx.HTTPStatusError),
            f'raised from {type(cause).__name__}, expected httpx.HTTPStatusError',
        )
        ensure(cause.response.status_code == 429, f'HTTP {cause.response.status_code}')
        sent = cause.response.json()
        if v03:
            # 0.3's REST binding puts the message beside the Status too (what a2a-sdk 1.3.0's
            # 0.3 REST client reads); an agent's own error names no `type` the SDK knows.
            ensure(sent.pop('message', None) == 'quota exceeded', f'the body is {sent}')
        ensure(sent == QUOTA_STATUS, f'the Status under it is {sent}, expected {QUOTA_STATUS}')
        first_line = text.splitlines()[0]
        return (
            f'A2AClientError {first_line!r}, data None; the Status sent (429 RESOURCE_EXHAUSTED, '
            f'{sent["error"]["message"]!r}, ErrorInfo {sent["error"]["details"][0]["reason"]} in '
            f'domain {sent["error"]["details"][0]["domain"]}, retryAfterSecs '
            f'{sent["error"]["details"][1]["retryAfterSecs"]}) only on its __cause__'
        )

    await step(
        "send_message answered with the agent's own error (-32050)",
        refused_with_custom_error(unary, 'py-msg-2'),
    )

    async def stream():
        kinds = []
        async for event in streaming.send_message(message('py-msg-3', 'stream to Python')):
            if event.HasField('task'):
                kinds.append(f'task {state_name(event.task.status.state)}')
                tasks['stream'] = event.task.id
            elif event.HasField('status_update'):
                kinds.append(f'status {state_name(event.status_update.status.state)}')
            elif event.HasField('artifact_update'):
                kinds.append(f'artifact {get_artifact_text(event.artifact_update.artifact)!r}')
            else:
                kinds.append(f'other {event}')
        expected = [
            'task TASK_STATE_SUBMITTED',
            'status TASK_STATE_WORKING',
            "artifact 'Hello from Rust: stream to Python'",
            'status TASK_STATE_COMPLETED',
        ]
        ensure(kinds == expected, f'events {kinds}, expected {expected}')
        return f'{len(kinds)} events: {", ".join(kinds)}'

    await step(f"send_message streaming (SendStreamingMessage over {'gRPC' if grpc_ else 'SSE'})", stream())

    await step(
        "streaming send_message refused with the agent's own error",
        refused_with_custom_error(streaming, 'py-msg-4'),
    )

    async def subscribe():
        try:
            request = SubscribeToTaskRequest(id=tasks['stream'])
            events = [e async for e in streaming.subscribe(request)]
        except UnsupportedOperationError as e:
            return f'UnsupportedOperationError: {e.message!r}'
        raise StepFailed(f'returned {events} instead of raising UnsupportedOperationError')

    await step(
        'subscribe to a completed task raises UnsupportedOperationError',
        subscribe(),
    )

    async def list_tasks():
        listed = await unary.list_tasks(ListTasksRequest())
        ids = [t.id for t in listed.tasks]
        ensure(tasks['unary'] in ids and tasks['stream'] in ids, f'tasks {ids}')
        return f'{len(ids)} task(s): {", ".join(ids)}'

    if not v03:  # A2A 0.3 has no tasks/list over JSON-RPC (the SDK raises NotImplementedError)
        await step('list_tasks (ListTasks)', list_tasks())

    push = TaskPushNotificationConfig(
        task_id=tasks.get('unary', ''), id='py-push-1', url=WEBHOOK_URL, token='py-token'
    )

    def same_push(config):
        ensure(
            (config.task_id, config.id, config.url, config.token)
            == (push.task_id, push.id, push.url, push.token),
            f'config {config}, expected {push}',
        )

    async def create_push():
        config = await unary.create_task_push_notification_config(push)
        same_push(config)
        return f'config {config.id!r} for task {config.task_id}'

    await step('create_task_push_notification_config', create_push())

    async def get_push():
        config = await unary.get_task_push_notification_config(
            GetTaskPushNotificationConfigRequest(task_id=push.task_id, id=push.id)
        )
        same_push(config)
        return f'config {config.id!r}, url {config.url}'

    await step('get_task_push_notification_config', get_push())

    async def list_push(expected):
        listed = await unary.list_task_push_notification_configs(
            ListTaskPushNotificationConfigsRequest(task_id=push.task_id)
        )
        ids = [c.id for c in listed.configs]
        ensure(ids == expected, f'configs {ids}, expected {expected}')
        for config in listed.configs:
            same_push(config)
        return f'{len(ids)} config(s) {ids}'

    # a2a-sdk 1.3.0's 0.3 REST transport has no call for the list and the delete (it raises
    # NotImplementedError); phase 11 makes them over plain HTTP.
    legacy_rest = v03 and rest
    if not legacy_rest:
        await step('list_task_push_notification_configs', list_push([push.id]))

    async def delete_push():
        result = await unary.delete_task_push_notification_config(
            DeleteTaskPushNotificationConfigRequest(task_id=push.task_id, id=push.id)
        )
        return f'deleted, the SDK returned {result!r}'

    if not legacy_rest:
        await step('delete_task_push_notification_config', delete_push())
        await step('list_task_push_notification_configs after the delete: none left', list_push([]))

    async def extended_card():
        extended = await unary.get_extended_agent_card(GetExtendedAgentCardRequest())
        skills = [s.id for s in extended.skills]
        ensure('greet_by_name' in skills, f'skills {skills}, expected the extended greet_by_name')
        ensure(extended.name == 'Rust Interop Agent (extended)', f'name {extended.name!r}')
        return f'{extended.name!r} with skills {skills}'

    await step('get_extended_agent_card', extended_card())

    if rest and not v03:  # a tenant's routes and A2A-Version: 1.0's REST binding only
        await rest_only_steps(unary, tasks)

    await unary.close()
    await streaming.close()
    summary('client.py', f'the Rust agent ({version})')


async def rest_only_steps(client, tasks):
    """The REST run's further steps: a tenant's routes, query parameters of every kind, and how
    the SDK's REST transport reports the standard errors the agent names by reason."""

    async def tenant_send():
        request = message('py-msg-5', 'hi from a tenant')
        request.tenant = TENANT
        events = [e async for e in client.send_message(request)]
        ensure(len(events) == 1 and events[0].HasField('task'), f'responses {events}')
        task = events[0].task
        seen = task.metadata['tenant'] if 'tenant' in task.metadata else None
        ensure(seen == TENANT, f'the agent saw tenant {seen!r}, expected {TENANT!r}')
        tasks['tenant'] = task.id
        tasks['tenant_context'] = task.context_id
        return f'task {task.id} made through /{TENANT}/message:send, metadata tenant {seen!r}'

    await step('send_message under a tenant (POST /{tenant}/message:send)', tenant_send())

    async def tenant_get():
        task = await client.get_task(GetTaskRequest(id=tasks['tenant'], tenant=TENANT))
        ensure(task.id == tasks['tenant'], f'task id {task.id!r}')
        return f'task {task.id} through /{TENANT}/tasks/{{id}}'

    await step('get_task under a tenant (GET /{tenant}/tasks/{id})', tenant_get())

    async def tenant_get_without():
        # The tenant travels in the path only (the SDK leaves it out of the query), and the agent
        # keeps tasks per tenant: without the prefix the task is not found.
        try:
            task = await client.get_task(GetTaskRequest(id=tasks['tenant']))
        except TaskNotFoundError as e:
            return f'TaskNotFoundError: {e.message!r} (the task is {TENANT}\'s)'
        raise StepFailed(f'returned {task} instead of raising TaskNotFoundError')

    await step("get_task of a tenant's task without the tenant raises TaskNotFoundError", tenant_get_without())

    async def list_filtered():
        # A string, an enum, a boolean and a number in the query, under the tenant's route.
        listed = await client.list_tasks(
            ListTasksRequest(
                tenant=TENANT,
                context_id=tasks['tenant_context'],
                status=TaskState.TASK_STATE_COMPLETED,
                include_artifacts=True,
                history_length=0,
            )
        )
        ids = [t.id for t in listed.tasks]
        ensure(ids == [tasks['tenant']], f'tasks {ids}, expected only {tasks["tenant"]}')
        task = listed.tasks[0]
        ensure(len(task.artifacts) == 1, f'{len(task.artifacts)} artifacts, asked for them')
        ensure(len(task.history) == 0, f'{len(task.history)} history messages, asked for 0')
        return (
            f'/{TENANT}/tasks?contextId&status&includeArtifacts=true&historyLength=0: the one '
            'task, with its artifact and no history'
        )

    await step('list_tasks under a tenant with query parameters of every kind', list_filtered())

    async def invalid_params():
        try:
            events = [e async for e in client.send_message(SendMessageRequest())]
        except InvalidParamsError as e:
            return f'InvalidParamsError: {e.message!r}'
        raise StepFailed(f'returned {events} instead of raising InvalidParamsError')

    await step(
        'send_message without a message raises InvalidParamsError (reason INVALID_PARAMS)',
        invalid_params(),
    )

    async def wrong_version():
        context = ClientCallContext(service_parameters={'A2A-Version': '0.3'})
        try:
            task = await client.get_task(GetTaskRequest(id=tasks['tenant']), context=context)
        except VersionNotSupportedError as e:
            return f'VersionNotSupportedError: {e.message!r}'
        raise StepFailed(f'returned {task} instead of raising VersionNotSupportedError')

    await step('get_task with A2A-Version 0.3 raises VersionNotSupportedError', wrong_version())


if __name__ == '__main__':
    args = sys.argv[1:]
    flags = {a for a in args if a.startswith('--')}
    args = [a for a in args if not a.startswith('--')]
    v03, rest, grpc_ = '--v0.3' in flags, '--rest' in flags, '--grpc' in flags
    if len(args) != 1 or flags - {'--v0.3', '--rest', '--grpc'} or (rest and grpc_) or (v03 and grpc_):
        sys.exit('usage: client.py [--v0.3] [--rest | --grpc] URL')
    asyncio.run(main(args[0], v03, rest, grpc_))
