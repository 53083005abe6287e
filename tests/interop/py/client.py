"""The official a2a-sdk 1.3.0 client, calling the Rust interop agent, for the interop test.

    python client.py URL

Drives the agent at URL (tests/interop/src/bin/interop-agent.rs) through the SDK's public client
API only: create_client resolves the agent card, then every call goes through the SDK's JSON-RPC
transport, and its results and exceptions are checked as an SDK user would see them. Prints one
line per step; exits 1 at the first step that fails.
"""

import asyncio
import sys
import traceback

from a2a.client import A2ACardResolver, A2AClientError, ClientConfig, create_client
from a2a.helpers import get_artifact_text, new_text_message
from a2a.types import (
    CancelTaskRequest,
    GetTaskRequest,
    ListTasksRequest,
    Role,
    SendMessageRequest,
    TaskState,
)
from a2a.utils.errors import TaskNotCancelableError, TaskNotFoundError

import httpx

# The text that makes the Rust agent answer with its own error, QuotaExceeded (code -32050).
QUOTA_TRIGGER = 'use up my quota'


class StepFailed(Exception):
    pass


def ensure(cond, why):
    if not cond:
        raise StepFailed(why)


passed = 0


async def step(name, coro):
    global passed
    try:
        saw = await coro
    except StepFailed as e:
        print(f'FAILED {name}: {e}', flush=True)
        sys.exit(1)
    except Exception:  # an SDK exception the step did not expect: show all of it
        print(f'FAILED {name}: unexpected exception', flush=True)
        traceback.print_exc(file=sys.stdout)
        sys.exit(1)
    passed += 1
    print(f'ok     {name}: {saw}', flush=True)


def message(message_id, text):
    msg = new_text_message(text, role=Role.ROLE_USER)
    msg.message_id = message_id
    return SendMessageRequest(message=msg)


def state_name(state):
    return TaskState.Name(state)


async def main(url):
    async with httpx.AsyncClient(timeout=20) as http:
        card = await A2ACardResolver(http, url).get_agent_card()

    async def check_card():
        ensure(card.name == 'Rust Interop Agent', f'card name {card.name!r}')
        ensure(card.capabilities.streaming, 'the card does not declare streaming')
        iface = card.supported_interfaces[0]
        ensure(iface.protocol_binding == 'JSONRPC', f'binding {iface.protocol_binding!r}')
        return f'{card.name!r} v{card.version}, {iface.protocol_binding} {iface.protocol_version} at {iface.url}'

    await step('agent card (A2ACardResolver)', check_card())

    unary = await create_client(url, client_config=ClientConfig(streaming=False))
    streaming = await create_client(url, client_config=ClientConfig(streaming=True))
    tasks = {}

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
            # a2a-sdk maps the codes of its own table to exception classes; any other code,
            # such as the agent's own -32050, becomes a plain A2AClientError whose text
            # carries the code and message (the error's data is not kept).
            text = str(e)
            ensure('-32050' in text and 'quota exceeded' in text, f'A2AClientError text {text!r}')
            ensure(type(e) is A2AClientError, f'raised {type(e).__name__}, expected A2AClientError')
            return f'{type(e).__name__}: {text!r}'
        raise StepFailed(f'returned {events} instead of raising')

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

    await step('send_message streaming (SendStreamingMessage over SSE)', stream())

    await step(
        "streaming send_message refused with the agent's own error",
        refused_with_custom_error(streaming, 'py-msg-4'),
    )

    async def list_tasks():
        listed = await unary.list_tasks(ListTasksRequest())
        ids = [t.id for t in listed.tasks]
        ensure(tasks['unary'] in ids and tasks['stream'] in ids, f'tasks {ids}')
        return f'{len(ids)} task(s): {", ".join(ids)}'

    await step('list_tasks (ListTasks)', list_tasks())

    await unary.close()
    await streaming.close()
    print(f'client.py: {passed} steps passed against the Rust agent', flush=True)


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: client.py URL')
    asyncio.run(main(sys.argv[1]))
