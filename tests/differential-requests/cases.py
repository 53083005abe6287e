"""The request cases: one valid request per method and version, and its mutations.

Everything here is deterministic (no randomness, no clock), so two runs send the same bodies in the
same order and the case names are stable keys for allow.toml.

A case is {name, spec, method, kind, path, body}: `kind` is the mutation (see MUTATIONS below) and
`path` the dotted params path it changed ("" for the whole params), which is how the driver checks
the `requires` lists of spec/*/methods.toml against what the SDK refuses.
"""

import copy

HOOK = {'url': 'https://example.com/hook', 'token': 'tok'}

V1_SEND = {
    'message': {
        'messageId': 'm-1',
        'contextId': 'c-1',
        'role': 'ROLE_USER',
        'parts': [
            {'text': 'hi', 'metadata': {'k': 'v'}},
            {'data': {'a': 1}, 'mediaType': 'application/json'},
            {'url': 'https://example.com/f.txt', 'filename': 'f.txt', 'mediaType': 'text/plain'},
            {'raw': 'aGk=', 'mediaType': 'text/plain'},
        ],
        'metadata': {'k': 'v'},
        'extensions': ['https://example.com/ext'],
        'referenceTaskIds': ['t-0'],
    },
    'configuration': {
        'acceptedOutputModes': ['text/plain'],
        'taskPushNotificationConfig': {
            **HOOK,
            'authentication': {'scheme': 'Bearer', 'credentials': 'c'},
        },
        'historyLength': 5,
        'returnImmediately': False,
    },
    'metadata': {'k': 'v'},
}

# method -> a valid params object that exercises every member the params type has (except
# `tenant`, which routes to another owner's store and tells nothing about parsing).
V1 = {
    'SendMessage': V1_SEND,
    'SendStreamingMessage': V1_SEND,
    'GetTask': {'id': 't-missing', 'historyLength': 2},
    'ListTasks': {
        'contextId': 'c-1',
        'status': 'TASK_STATE_COMPLETED',
        'pageSize': 10,
        'historyLength': 1,
        'statusTimestampAfter': '2024-01-01T00:00:00Z',
        'includeArtifacts': True,
    },
    'CancelTask': {'id': 't-missing', 'metadata': {'k': 'v'}},
    'SubscribeToTask': {'id': 't-missing'},
    'CreateTaskPushNotificationConfig': {
        'taskId': 't-missing',
        'id': 'cfg-1',
        **HOOK,
        'authentication': {'scheme': 'Bearer', 'credentials': 'c'},
    },
    'GetTaskPushNotificationConfig': {'taskId': 't-missing', 'id': 'cfg-1'},
    'ListTaskPushNotificationConfigs': {'taskId': 't-missing', 'pageSize': 10},
    'GetExtendedAgentCard': {},
    'DeleteTaskPushNotificationConfig': {'taskId': 't-missing', 'id': 'cfg-1'},
}

V03_PUSH = {
    'id': 'cfg-1',
    **HOOK,
    'authentication': {'schemes': ['Bearer'], 'credentials': 'c'},
}

V03_SEND = {
    'message': {
        'kind': 'message',
        'messageId': 'm-1',
        'contextId': 'c-1',
        'role': 'user',
        'parts': [
            {'kind': 'text', 'text': 'hi', 'metadata': {'k': 'v'}},
            {'kind': 'data', 'data': {'a': 1}},
            {
                'kind': 'file',
                'file': {
                    'uri': 'https://example.com/f.txt',
                    'name': 'f.txt',
                    'mimeType': 'text/plain',
                },
            },
            {'kind': 'file', 'file': {'bytes': 'aGk=', 'mimeType': 'text/plain'}},
        ],
        'metadata': {'k': 'v'},
        'extensions': ['https://example.com/ext'],
        'referenceTaskIds': ['t-0'],
    },
    'configuration': {
        'acceptedOutputModes': ['text/plain'],
        'historyLength': 5,
        'pushNotificationConfig': V03_PUSH,
        'blocking': True,
    },
    'metadata': {'k': 'v'},
}

V0_3 = {
    'message/send': V03_SEND,
    'message/stream': V03_SEND,
    'tasks/get': {'id': 't-missing', 'historyLength': 2, 'metadata': {'k': 'v'}},
    'tasks/cancel': {'id': 't-missing', 'metadata': {'k': 'v'}},
    'tasks/pushNotificationConfig/set': {'taskId': 't-missing', 'pushNotificationConfig': V03_PUSH},
    'tasks/pushNotificationConfig/get': {
        'id': 't-missing',
        'pushNotificationConfigId': 'cfg-1',
        'metadata': {'k': 'v'},
    },
    'tasks/pushNotificationConfig/list': {'id': 't-missing', 'metadata': {'k': 'v'}},
    'tasks/pushNotificationConfig/delete': {
        'id': 't-missing',
        'pushNotificationConfigId': 'cfg-1',
        'metadata': {'k': 'v'},
    },
    'tasks/resubscribe': {'id': 't-missing', 'metadata': {'k': 'v'}},
    'agent/getAuthenticatedExtendedCard': {},
}

BASES = {'v1': V1, 'v0_3': V0_3}

# Members that hold an open enum's value, and a value no version of the spec defines.
UNKNOWN_ENUM = {
    'v1': {'role': 'ROLE_FUTURE', 'status': 'TASK_STATE_FUTURE'},
    'v0_3': {'role': 'robot'},
}
# Oneof members (v1 Part content; v0.3 FileContent's source), and the unknown member name a later
# spec's new kind would look like.
ONEOF_MEMBERS = {
    'v1': ('text', 'raw', 'url', 'data'),
    'v0_3': ('bytes', 'uri'),
}
# The member (of the path) under which those names are oneof members: elsewhere `url` is a plain
# field (a push notification config's).
ONEOF_PARENT = {'v1': 'parts', 'v0_3': 'file'}
FUTURE_MEMBER = 'futureContent'

MUTATIONS = (
    'valid',  # the base request as is
    'no-params',  # the request without a params member
    'null-params',  # "params": null
    'empty-params',  # "params": {}
    'drop',  # one member removed
    'null',  # one member set to null
    'empty',  # one string, list or object member set to "", [] or {}
    'unknown-enum',  # an enum member set to a value no spec defines
    'unknown-oneof',  # a oneof member renamed to a name the spec does not know
    'unknown-kind',  # v0.3: a `kind` tag set to a value no spec defines
    'drop-all-kinds',  # v0.3: every `kind` member removed at once
)


def _members(value, path=()):
    """Every (path, value) of an object member inside `value`, depth first, in document order.

    A path is a tuple of keys and list indices."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield path + (key,), child
            yield from _members(child, path + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _members(child, path + (i,))


def dotted(path) -> str:
    """('message', 'parts', 0, 'text') -> 'message.parts[0].text'."""
    out = ''
    for step in path:
        out += f'[{step}]' if isinstance(step, int) else ('.' if out else '') + step
    return out


def _parent(root, path):
    for step in path[:-1]:
        root = root[step]
    return root


def _request(method, params, with_params=True):
    body = {'jsonrpc': '2.0', 'id': 'req', 'method': method}
    if with_params:
        body['params'] = params
    return body


def _empty_like(value):
    if isinstance(value, str):
        return ''
    if isinstance(value, list):
        return []
    if isinstance(value, dict):
        return {}
    return None


def _drop_all(value, key):
    if isinstance(value, dict):
        value.pop(key, None)
        for child in value.values():
            _drop_all(child, key)
    elif isinstance(value, list):
        for child in value:
            _drop_all(child, key)


def cases_for(spec: str, method: str, params: dict):
    """The cases of one method: the valid request first, then every mutation."""
    out = []

    def add(kind, path, new_params, with_params=True):
        label = kind if path is None else f'{kind} {dotted(path) or "params"}'
        out.append(
            {
                'name': f'{spec} {method}: {label}',
                'spec': spec,
                'method': method,
                'kind': kind,
                'path': '' if path is None else dotted(path),
                'body': _request(method, new_params, with_params),
            }
        )

    add('valid', None, params)
    add('no-params', None, None, with_params=False)
    add('null-params', None, None)
    if params:
        add('empty-params', None, {})
    for path, value in _members(params):
        dropped = copy.deepcopy(params)
        del _parent(dropped, path)[path[-1]]
        add('drop', path, dropped)
        nulled = copy.deepcopy(params)
        _parent(nulled, path)[path[-1]] = None
        add('null', path, nulled)
        empty = _empty_like(value)
        if empty is not None and value != empty:
            emptied = copy.deepcopy(params)
            _parent(emptied, path)[path[-1]] = empty
            add('empty', path, emptied)
        key = path[-1]
        if key in UNKNOWN_ENUM[spec] and isinstance(value, str):
            changed = copy.deepcopy(params)
            _parent(changed, path)[key] = UNKNOWN_ENUM[spec][key]
            add('unknown-enum', path, changed)
        if key in ONEOF_MEMBERS[spec] and ONEOF_PARENT[spec] in path[:-1]:
            renamed = copy.deepcopy(params)
            parent = _parent(renamed, path)
            # Rebuild the object so the renamed member keeps its place.
            items = [(FUTURE_MEMBER if k == key else k, v) for k, v in parent.items()]
            parent.clear()
            parent.update(items)
            add('unknown-oneof', path, renamed)
        if spec == 'v0_3' and key == 'kind':
            changed = copy.deepcopy(params)
            _parent(changed, path)['kind'] = 'future-kind'
            add('unknown-kind', path, changed)
    if spec == 'v0_3' and any(p[-1] == 'kind' for p, _ in _members(params)):
        stripped = copy.deepcopy(params)
        _drop_all(stripped, 'kind')
        add('drop-all-kinds', None, stripped)
    return out


def all_cases():
    """Every case of both versions, v1 first, methods in table order."""
    return [
        case
        for spec, table in BASES.items()
        for method, params in table.items()
        for case in cases_for(spec, method, params)
    ]
