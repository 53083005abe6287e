"""The cases: seed messages serialized by the SDK's own protobuf classes, and mutations of their
bytes. Deterministic: the seeds come in a fixed order and every random choice is made by a
`random.Random` seeded with the seed's name.

A case is a dict `{'id', 'type', 'class', 'data'}`: `id` is `<seed>/<class>/<what>`, `type` the
proto message name the bytes are read as, `class` the kind of mutation (`seed` for the seed's own
bytes), `data` the bytes.
"""

import base64
import json
import random
import re
import struct
import zlib
from pathlib import Path

from google.protobuf import empty_pb2, json_format
from google.protobuf.descriptor import FieldDescriptor as FD

from a2a.types import a2a_pb2 as pb

import wire
from wire import I32, I64, LEN, SGROUP, VARINT, Field

CAPTURES = 'wire-captures/a2a-sdk-1.3.0'

# JSON-RPC method -> (params message, result message).
METHODS = {
    'SendMessage': ('SendMessageRequest', 'SendMessageResponse'),
    'SendStreamingMessage': ('SendMessageRequest', 'StreamResponse'),
    'GetTask': ('GetTaskRequest', 'Task'),
    'CancelTask': ('CancelTaskRequest', 'Task'),
    'ListTasks': ('ListTasksRequest', 'ListTasksResponse'),
    'SubscribeToTask': ('SubscribeToTaskRequest', 'StreamResponse'),
    'CreateTaskPushNotificationConfig': (
        'TaskPushNotificationConfig', 'TaskPushNotificationConfig'),
    'GetTaskPushNotificationConfig': (
        'GetTaskPushNotificationConfigRequest', 'TaskPushNotificationConfig'),
    'ListTaskPushNotificationConfigs': (
        'ListTaskPushNotificationConfigsRequest', 'ListTaskPushNotificationConfigsResponse'),
    'DeleteTaskPushNotificationConfig': ('DeleteTaskPushNotificationConfigRequest', 'Empty'),
    'GetExtendedAgentCard': ('GetExtendedAgentCardRequest', 'AgentCard'),
}


def message_class(name: str):
    """The SDK's class for a message name (`Empty` is google.protobuf.Empty)."""
    return empty_pb2.Empty if name == 'Empty' else getattr(pb, name)


def all_type_names() -> list[str]:
    """Every message of the SDK's a2a_pb2, plus Empty."""
    return sorted(pb.DESCRIPTOR.message_types_by_name) + ['Empty']


# ---- seeds ----

def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


AUTH_CODE = {'authorizationCode': {
    'authorizationUrl': 'https://auth.example.com/authorize',
    'tokenUrl': 'https://auth.example.com/token',
    'refreshUrl': 'https://auth.example.com/refresh', 'scopes': {'read': 'Read', 'write': 'Write'},
    'pkceRequired': True}}
MESSAGE = {
    'messageId': 'm-1', 'contextId': 'c-1', 'taskId': 't-1', 'role': 'ROLE_AGENT',
    'parts': [{'text': 'hello'}, {'raw': b64(b'\x00\x01\xfe\xff'), 'filename': 'b.bin',
                                   'mediaType': 'application/octet-stream'}],
    'metadata': {'trace': ['a', 1, {'deep': [True, None, 2.5]}], 'n': -3},
    'extensions': ['https://ext.example.com/a', 'https://ext.example.com/b'],
    'referenceTaskIds': ['t-0', 't-00'],
}
STATUS = {'state': 'TASK_STATE_INPUT_REQUIRED', 'message': {
    'messageId': 'm-2', 'role': 'ROLE_AGENT', 'parts': [{'text': 'which one?'}]},
    'timestamp': '2026-03-04T05:06:07.123456789Z'}
ARTIFACT = {
    'artifactId': 'a-1', 'name': 'report', 'description': 'the report',
    'parts': [{'url': 'https://example.com/r.pdf', 'mediaType': 'application/pdf',
               'filename': 'r.pdf'},
              {'data': {'rows': [[1, 2], [3, 4]], 'total': 10, 'ok': True, 'none': None}}],
    'metadata': {'size': 1024}, 'extensions': ['https://ext.example.com/a'],
}
TASK = {
    'id': 't-1', 'contextId': 'c-1', 'status': STATUS, 'artifacts': [ARTIFACT],
    'history': [MESSAGE, {'messageId': 'm-0', 'role': 'ROLE_USER', 'parts': [{'text': 'go'}]}],
    'metadata': {'priority': 'high', 'tags': ['x', 'y'], 'nested': {'list': [[], [{}], 0.5]}},
}
STATUS_UPDATE = {'taskId': 't-1', 'contextId': 'c-1', 'status': STATUS,
                 'metadata': {'seq': 3}}
ARTIFACT_UPDATE = {'taskId': 't-1', 'contextId': 'c-1', 'artifact': ARTIFACT, 'append': True,
                   'lastChunk': True, 'metadata': {'seq': 4}}
PUSH_CONFIG = {'tenant': 'acme', 'id': 'p-1', 'taskId': 't-1',
               'url': 'https://hook.example.com/a2a', 'token': 'tok',
               'authentication': {'scheme': 'Bearer', 'credentials': 'secret'}}
SCHEMES = {
    'apiKey': {'apiKeySecurityScheme': {'description': 'a key', 'location': 'header',
                                        'name': 'X-API-Key'}},
    'http': {'httpAuthSecurityScheme': {'description': 'bearer', 'scheme': 'Bearer',
                                        'bearerFormat': 'JWT'}},
    'oauth2': {'oauth2SecurityScheme': {
        'description': 'oauth', 'flows': AUTH_CODE,
        'oauth2MetadataUrl': 'https://auth.example.com/.well-known'}},
    'oidc': {'openIdConnectSecurityScheme': {
        'description': 'oidc', 'openIdConnectUrl': 'https://auth.example.com/.well-known/openid'}},
    'mtls': {'mtlsSecurityScheme': {'description': 'mutual TLS'}},
}
FLOWS = {
    'authorizationCode': AUTH_CODE,
    'clientCredentials': {'clientCredentials': {
        'tokenUrl': 'https://auth.example.com/token', 'refreshUrl': 'https://auth.example.com/r',
        'scopes': {'read': 'Read'}}},
    'implicit': {'implicit': {'authorizationUrl': 'https://auth.example.com/authorize',
                              'refreshUrl': 'https://auth.example.com/r', 'scopes': {'a': 'A'}}},
    'password': {'password': {'tokenUrl': 'https://auth.example.com/token',
                              'refreshUrl': 'https://auth.example.com/r', 'scopes': {'b': 'B'}}},
    'deviceCode': {'deviceCode': {
        'deviceAuthorizationUrl': 'https://auth.example.com/device',
        'tokenUrl': 'https://auth.example.com/token', 'refreshUrl': 'https://auth.example.com/r',
        'scopes': {'c': 'C', 'd': 'D'}}},
}
REQUIREMENT = {'schemes': {'apiKey': {'list': []}, 'oauth2': {'list': ['read', 'write']}}}
CARD = {
    'name': 'Hand Agent', 'description': 'every member of the card',
    'supportedInterfaces': [
        {'url': 'https://agent.example.com/a2a', 'protocolBinding': 'JSONRPC', 'tenant': 'acme',
         'protocolVersion': '1.0'},
        {'url': 'https://agent.example.com/grpc', 'protocolBinding': 'GRPC',
         'protocolVersion': '1.0'}],
    'provider': {'url': 'https://example.com', 'organization': 'Example'},
    'version': '1.2.3', 'documentationUrl': 'https://example.com/docs',
    'capabilities': {'streaming': True, 'pushNotifications': False, 'extendedAgentCard': True,
                     'extensions': [{'uri': 'https://ext.example.com/a', 'description': 'ext',
                                     'required': True, 'params': {'level': 2, 'modes': ['x']}}]},
    'securitySchemes': SCHEMES,
    'securityRequirements': [REQUIREMENT, {'schemes': {'mtls': {}}}],
    'defaultInputModes': ['text/plain', 'application/json'], 'defaultOutputModes': ['text/plain'],
    'skills': [{'id': 's-1', 'name': 'echo', 'description': 'echoes', 'tags': ['echo', 'test'],
                'examples': ['say hi'], 'inputModes': ['text/plain'], 'outputModes': ['text/plain'],
                'securityRequirements': [REQUIREMENT]}],
    'signatures': [{'protected': 'eyJhbGciOiJFUzI1NiJ9', 'signature': 'c2ln',
                    'header': {'kid': 'key-1', 'n': [1, 2]}}],
    'iconUrl': 'https://example.com/icon.png',
}

# (name, type, ProtoJSON): together they set every field of every message of the proto (checked
# by `coverage`), every oneof member, maps, Struct/Value metadata with nested lists, timestamps.
HAND = [
    ('Part-text', 'Part', {'text': 'hello', 'filename': 'a.txt', 'mediaType': 'text/plain',
                           'metadata': {'k': [1, 'two', {'three': [True, None]}]}}),
    ('Part-raw', 'Part', {'raw': b64(bytes(range(256))), 'filename': 'all.bin'}),
    ('Part-url', 'Part', {'url': 'https://example.com/f.pdf', 'mediaType': 'application/pdf'}),
    ('Part-data', 'Part', {'data': {'list': [1, 2.5, -3, [[]], {}, 'x'], 'obj': {'a': {'b': 'c'}},
                                    'null': None, 'f': False, 'big': 9007199254740993}}),
    ('Part-data-list', 'Part', {'data': [1, 'a', None, [True]]}),
    ('Part-data-string', 'Part', {'data': 'just a string'}),
    ('Message', 'Message', MESSAGE),
    ('TaskStatus', 'TaskStatus', STATUS),
    ('Artifact', 'Artifact', ARTIFACT),
    ('Task', 'Task', TASK),
    ('TaskStatusUpdateEvent', 'TaskStatusUpdateEvent', STATUS_UPDATE),
    ('TaskArtifactUpdateEvent', 'TaskArtifactUpdateEvent', ARTIFACT_UPDATE),
    ('StreamResponse-task', 'StreamResponse', {'task': TASK}),
    ('StreamResponse-message', 'StreamResponse', {'message': MESSAGE}),
    ('StreamResponse-statusUpdate', 'StreamResponse', {'statusUpdate': STATUS_UPDATE}),
    ('StreamResponse-artifactUpdate', 'StreamResponse', {'artifactUpdate': ARTIFACT_UPDATE}),
    ('SendMessageResponse-task', 'SendMessageResponse', {'task': TASK}),
    ('SendMessageResponse-message', 'SendMessageResponse', {'message': MESSAGE}),
    *[(f'SecurityScheme-{k}', 'SecurityScheme', v) for k, v in SCHEMES.items()],
    *[(f'OAuthFlows-{k}', 'OAuthFlows', v) for k, v in FLOWS.items()],
    ('AgentCard', 'AgentCard', CARD),
    ('SendMessageRequest', 'SendMessageRequest', {
        'tenant': 'acme', 'message': MESSAGE, 'metadata': {'client': 'hand', 'v': [1, [2, [3]]]},
        'configuration': {'acceptedOutputModes': ['text/plain'],
                          'taskPushNotificationConfig': PUSH_CONFIG, 'historyLength': 5,
                          'returnImmediately': True}}),
    ('GetTaskRequest', 'GetTaskRequest', {'tenant': 'acme', 'id': 't-1', 'historyLength': 3}),
    ('ListTasksRequest', 'ListTasksRequest', {
        'tenant': 'acme', 'contextId': 'c-1', 'status': 'TASK_STATE_WORKING', 'pageSize': 20,
        'pageToken': 'next', 'historyLength': 2, 'statusTimestampAfter': '2025-12-31T23:59:59.5Z',
        'includeArtifacts': True}),
    ('ListTasksResponse', 'ListTasksResponse', {
        'tasks': [TASK, {'id': 't-2', 'status': {'state': 'TASK_STATE_COMPLETED'}}],
        'nextPageToken': 'more', 'pageSize': 2, 'totalSize': 7}),
    ('CancelTaskRequest', 'CancelTaskRequest', {'tenant': 'acme', 'id': 't-1',
                                                'metadata': {'why': 'user'}}),
    ('SubscribeToTaskRequest', 'SubscribeToTaskRequest', {'tenant': 'acme', 'id': 't-1'}),
    ('TaskPushNotificationConfig', 'TaskPushNotificationConfig', PUSH_CONFIG),
    ('GetTaskPushNotificationConfigRequest', 'GetTaskPushNotificationConfigRequest',
     {'tenant': 'acme', 'taskId': 't-1', 'id': 'p-1'}),
    ('DeleteTaskPushNotificationConfigRequest', 'DeleteTaskPushNotificationConfigRequest',
     {'tenant': 'acme', 'taskId': 't-1', 'id': 'p-1'}),
    ('ListTaskPushNotificationConfigsRequest', 'ListTaskPushNotificationConfigsRequest',
     {'tenant': 'acme', 'taskId': 't-1', 'pageSize': 10, 'pageToken': 'p'}),
    ('ListTaskPushNotificationConfigsResponse', 'ListTaskPushNotificationConfigsResponse',
     {'configs': [PUSH_CONFIG, {'url': 'https://hook.example.com/b'}], 'nextPageToken': 'n'}),
    ('GetExtendedAgentCardRequest', 'GetExtendedAgentCardRequest', {'tenant': 'acme'}),
    ('Empty', 'Empty', {}),
]


def _sse_data(text: str) -> list[str]:
    """The data of each event of an SSE body. Lines end at LF, CRLF or CR only: the captured
    text holds U+2028 and friends, which str.splitlines would split at."""
    events, data = [], []
    for line in text.replace('\r\n', '\n').replace('\r', '\n').split('\n'):
        if not line:
            if data:
                events.append('\n'.join(data))
            data = []
        elif line.startswith('data:'):
            data.append(line[5:].removeprefix(' '))
    if data:
        events.append('\n'.join(data))
    return events


def captured(shared: Path) -> tuple[list, list]:
    """(seeds, skipped) from the captures: every success result (unary bodies, SSE events, the
    agent card) and every request's params, as `(name, type, ProtoJSON)`."""
    folder = shared / CAPTURES
    out, skipped = [], []
    for path in sorted(folder.iterdir()):
        name = path.name
        stem = name.split('.request.')[0].split('.response.')[0].split('.meta.')[0]
        if name.endswith('.request.json'):
            try:
                request = json.loads(path.read_text())
            except ValueError:
                skipped.append(f'{name}: not JSON')
                continue
            method = request.get('method')
            if method not in METHODS or not isinstance(request.get('params'), dict):
                skipped.append(f'{name}: method {method!r} has no params message')
                continue
            out.append((f'{stem}.params', METHODS[method][0], request['params']))
        elif name.endswith('.response.json') or name.endswith('.response.sse'):
            text = path.read_bytes().decode()
            bodies = _sse_data(text) if name.endswith('.sse') else [text]
            for i, body in enumerate(bodies):
                seed = f'{stem}.result' + (f'#{i}' if name.endswith('.sse') else '')
                value = json.loads(body)
                if stem.endswith('agent-card'):
                    out.append((f'{stem}.card', 'AgentCard', value))
                    continue
                if 'result' not in value:
                    skipped.append(f'{seed}: an error reply')
                    continue
                request = json.loads((folder / f'{stem}.request.json').read_text())
                out.append((seed, METHODS[request['method']][1], value['result']))
    return out, skipped


SPEC = 'a2a-tck/specification/specification.md'

# The spec's HTTP+JSON examples: the request path -> (request body message, 200 reply message).
# A streaming reply is SSE, one StreamResponse per event.
HTTP_PATHS = [
    ('POST /message:send', 'SendMessageRequest', 'SendMessageResponse'),
    ('POST /message:stream', 'SendMessageRequest', 'StreamResponse'),
    ('GET /tasks?', None, 'ListTasksResponse'),
    ('GET /tasks/', None, 'Task'),
    ('GET /extendedAgentCard', None, 'AgentCard'),
    ('POST /webhook', 'StreamResponse', None),
    ('POST {webhook_url}', 'StreamResponse', None),
]


def _example_type(value: dict) -> str | None:
    """The message a JSON example of the spec shows, by its members (None: a fragment)."""
    if 'jsonrpc' in value:
        method = value.get('method')
        if method in METHODS and isinstance(value.get('params'), dict):
            return 'params'
        return None
    if 'role' in value and 'parts' in value:
        return 'Message'
    if 'artifactId' in value:
        return 'Artifact'
    if 'name' in value and ('skills' in value or 'supportedInterfaces' in value):
        return 'AgentCard'
    if 'kind' not in value and len(value) <= 4 and value.keys() & {'text', 'raw', 'url', 'data'}:
        return 'Part'
    return None


def examples(shared: Path) -> tuple[list, list]:
    """(seeds, skipped) from the examples in the spec's own text: its JSON blocks that are a
    whole message (a Message, Artifact, AgentCard, Part, or a JSON-RPC request's params) and the
    bodies of its HTTP+JSON examples (requests, 200 replies, SSE events, webhook posts), as
    `(name, type, ProtoJSON)`. Fragments, error replies and blocks that are not JSON (the spec
    writes some with comments or placeholders) are passed over with why."""
    text = (shared / SPEC).read_text()
    out, skipped = [], []
    request = None  # the last HTTP request's path entry, for the reply that follows it
    for m in re.finditer(r'```(json|http)\n(.*?)```', text, re.S):
        line = text.count('\n', 0, m.start()) + 1
        name = f'spec.{line}'
        if m.group(1) == 'json':
            try:
                value = json.loads(m.group(2))
            except ValueError:
                skipped.append(f'{name}: not JSON (comments or placeholders)')
                continue
            kind = _example_type(value) if isinstance(value, dict) else None
            if kind is None and isinstance(value, dict) and 'jsonrpc' in value:
                what = 'an error reply' if 'error' in value else 'no params message'
                skipped.append(f'{name}: JSON-RPC, {what}')
            elif kind is None:
                skipped.append(f'{name}: a fragment, not a whole message')
            elif kind == 'params':
                out.append((f'{name}.params', METHODS[value['method']][0], value['params']))
            else:
                out.append((f'{name}.{kind}', kind, value))
            continue
        head, _, body = m.group(2).partition('\n\n')
        first = head.split('\n')[0]
        if not first.startswith('HTTP/'):
            request = next((p for p in HTTP_PATHS if first.startswith(p[0])), None)
            kind = request[1] if request else None
        elif first.startswith('HTTP/1.1 200'):
            kind = request[2] if request else None
        else:
            skipped.append(f'{name}: an error reply ({first.strip()})')
            continue
        if kind is None or not body.strip():
            skipped.append(f'{name}: no message body ({first.strip()})')
            continue
        bodies = _sse_data(body) if 'text/event-stream' in head else [body]
        for i, one in enumerate(bodies):
            try:
                value = json.loads(one)
            except ValueError:
                skipped.append(f'{name}#{i}: not JSON ({first.strip()})')
                continue
            out.append((f'{name}#{i}.{kind}', kind, value))
    return out, skipped


def serialize(type_name: str, value: dict) -> bytes:
    """The SDK's own bytes for a ProtoJSON value: ParseDict (unknown members ignored, as the SDK
    reads JSON) into its class, then SerializeToString, deterministic (map entries sorted by key;
    otherwise upb writes them in its hash order, which changes from run to run)."""
    msg = message_class(type_name)()
    json_format.ParseDict(value, msg, ignore_unknown_fields=True)
    return msg.SerializeToString(deterministic=True)


def seeds(shared: Path | None) -> tuple[list, list]:
    """[(name, type, bytes)] of the captures (when `shared` is given) and the hand-built ones, and
    the captures passed over with why."""
    out, skipped = [], []
    if shared is not None:
        found, skipped = captured(shared)
        from_spec, spec_skipped = examples(shared)
        skipped += spec_skipped
        for name, type_name, value in found + from_spec:
            try:
                out.append((name, type_name, serialize(type_name, value)))
            except json_format.ParseError as e:
                skipped.append(f'{name}: ParseDict refuses it: {e}')
    for name, type_name, value in HAND:
        out.append((f'hand.{name}', type_name, serialize(type_name, value)))
    return out, skipped


def coverage(all_seeds: list) -> list[str]:
    """The fields of lf.a2a.v1 messages that no seed sets, at any depth ("" when all are)."""
    present = set()
    for _, type_name, data in all_seeds:
        for loc in wire.locations(message_class(type_name).DESCRIPTOR, data):
            for f in wire.split(loc.data):
                present.add((loc.desc.full_name, f.number))
    missing = []
    for desc in pb.DESCRIPTOR.message_types_by_name.values():
        for fd in desc.fields:
            if (desc.full_name, fd.number) not in present:
                missing.append(f'{desc.name}.{fd.name}')
    return missing


# ---- mutations ----

UNKNOWN_NUMBER = 1000  # no A2A message has a field numbered this high
GROUP_BODY = (wire.key(1, VARINT) + wire.varint(7) + wire.key(2, SGROUP)
              + Field(1, LEN, b'x').encode() + wire.key(2, wire.EGROUP))
UNKNOWN_VALUES = {
    VARINT: wire.varint(150),
    I64: struct.pack('<q', -2),
    LEN: Field(1, LEN, b'abc').encode() + Field(2, VARINT, wire.varint(1)).encode(),
    SGROUP: GROUP_BODY,
    I32: struct.pack('<i', 7),
}
BAD_UTF8 = {'lone-ff': b'ab\xffcd', 'cut-multibyte': b'ok\xe2\x82', 'overlong': b'\xc0\x80',
            'surrogate': b'\xed\xa0\x80'}
TIMESTAMP = 'google.protobuf.Timestamp'
SCALAR_VARINT = (FD.TYPE_INT32, FD.TYPE_INT64, FD.TYPE_UINT64, FD.TYPE_BOOL, FD.TYPE_ENUM)


def real_oneofs(desc) -> list:
    """The message's oneofs, without the synthetic ones of proto3 `optional` fields."""
    return [o for o in desc.oneofs
            if not (len(o.fields) == 1 and o.name == '_' + o.fields[0].name)]


def _insert(fields: list, pos: str, new: Field, rng: random.Random) -> list:
    at = {'start': 0, 'end': len(fields)}.get(pos)
    if at is None:
        at = rng.randint(1, len(fields) - 1) if len(fields) > 1 else len(fields)
    return fields[:at] + [new] + fields[at:]


class Mutator:
    """The mutations of one seed; `pool` maps a message's full name to instances of it seen in
    any seed (for a second occurrence of a message field, and for switching a oneof)."""

    def __init__(self, name: str, type_name: str, data: bytes, pool: dict):
        self.name, self.type, self.data, self.pool = name, type_name, data, pool
        self.desc = message_class(type_name).DESCRIPTOR
        self.rng = random.Random(zlib.crc32(name.encode()))
        self.locs = wire.locations(self.desc, data)
        self.nested = self.locs[1:]
        self.cases = []

    def add(self, cls: str, what: str, data: bytes):
        self.cases.append({'id': f'{self.name}/{cls}/{what}', 'type': self.type, 'class': cls,
                           'data': data})

    def at(self, loc, change) -> bytes:
        return wire.rewrite(self.data, self.desc, loc.path, change)

    def sample(self, items: list, k: int) -> list:
        return items if len(items) <= k else sorted(self.rng.sample(items, k),
                                                    key=items.index)

    def where(self, loc) -> str:
        return '' if not loc.path else f'@{loc.name}'

    # -- the mutation classes --

    def unknown_fields(self):
        """A field of a number the message does not have, of each wire type (a group holding a
        varint and a group of its own), at the start, in the middle and at the end of the seed,
        and at a random place in two nested messages; and the largest field number there is."""
        top = self.locs[0]
        for w, value in UNKNOWN_VALUES.items():
            positions = ('start', 'middle', 'end') if w in (VARINT, LEN, SGROUP) else (
                'start', 'end')
            for pos in positions:
                new = Field(UNKNOWN_NUMBER, w, value)
                self.add('unknown-field', f'{wire.WIRE_NAMES[w]}-{pos}', self.at(
                    top, lambda b: wire.join(_insert(wire.split(b), pos, new, self.rng))))
        # The largest field number there is, once.
        new = Field((1 << 29) - 1, VARINT, wire.varint(1))
        self.add('unknown-field', 'max-number-end', self.data + new.encode())
        for loc in self.sample(self.nested, 2):
            for w, value in UNKNOWN_VALUES.items():
                pos = self.rng.choice(('start', 'middle', 'end'))
                new = Field(UNKNOWN_NUMBER + 1, w, value)
                self.add('unknown-field', f'{wire.WIRE_NAMES[w]}-{pos}{self.where(loc)}', self.at(
                    loc, lambda b: wire.join(_insert(wire.split(b), pos, new, self.rng))))

    def unknown_enums(self):
        """Up to four enum fields (at any depth) set to a number their enum does not have: 9 for
        a Role, 42 for the others; the first also to -5 (a 10-byte varint)."""
        done = 0
        for loc in self.locs:
            for fd in loc.desc.fields:
                if fd.type != FD.TYPE_ENUM or fd.is_repeated or done >= 4:
                    continue
                number = 9 if fd.enum_type.name == 'Role' else 42
                done += 1

                def change(b, fd=fd, number=number):
                    fields = wire.split(b)
                    hit = [i for i, f in enumerate(fields) if f.number == fd.number]
                    new = Field(fd.number, VARINT, wire.varint(number))
                    if hit:
                        fields[hit[-1]] = new
                    else:
                        fields.append(new)
                    return wire.join(fields)

                where = f'{loc.name}.{fd.json_name}' if loc.path else fd.json_name
                self.add('unknown-enum', f'{where}={number}', self.at(loc, change))
                if done == 1:
                    self.add('unknown-enum', f'{where}=-5', self.at(
                        loc, lambda b, fd=fd: wire.join(wire.split(b) + [
                            Field(fd.number, VARINT, wire.varint(-5))])))

    def unknown_oneof_members(self):
        """A member the oneof does not have (the message's highest field number plus one) in
        place of the known one, before it and after it: in the seed itself when it is a oneof
        (StreamResponse, SendMessageResponse, SecurityScheme, Part, OAuthFlows), in two nested
        A2A messages with one (Part, SecurityScheme, ...) and in one google.protobuf.Value."""
        with_oneof = [loc for loc in self.nested if real_oneofs(loc.desc)]
        a2a = [loc for loc in with_oneof if loc.desc.full_name.startswith('lf.a2a.')]
        values = [loc for loc in with_oneof if loc not in a2a]
        locs = [self.locs[0]] if real_oneofs(self.desc) else []
        for loc in locs + self.sample(a2a, 2) + self.sample(values, 1):
            members = {fd.number for o in real_oneofs(loc.desc) for fd in o.fields}
            number = max(fd.number for fd in loc.desc.fields) + 1
            new = Field(number, LEN, UNKNOWN_VALUES[LEN])
            w = self.where(loc)

            def replace(b, members=members, new=new):
                fields = wire.split(b)
                hit = [i for i, f in enumerate(fields) if f.number in members]
                at = hit[0] if hit else len(fields)
                rest = [f for f in fields if f.number not in members]
                return wire.join(rest[:at] + [new] + rest[at:])

            self.add('unknown-oneof', f'replace-member{w}', self.at(loc, replace))
            self.add('unknown-oneof', f'before-member{w}',
                     self.at(loc, lambda b, new=new: new.encode() + b))
            self.add('unknown-oneof', f'after-member{w}',
                     self.at(loc, lambda b, new=new: b + new.encode()))

    def reorder(self):
        fields = wire.split(self.data)
        if len(fields) > 1:
            self.add('reorder', 'reversed', wire.join(fields[::-1]))
            for k in range(2):
                shuffled = fields[:]
                self.rng.shuffle(shuffled)
                self.add('reorder', f'shuffled-{k}', wire.join(shuffled))
        multi = [loc for loc in self.nested if len(wire.split(loc.data)) > 1]
        for loc in self.sample(multi, 2):
            self.add('reorder', f'reversed{self.where(loc)}',
                     self.at(loc, lambda b: wire.join(wire.split(b)[::-1])))

    def _other_value(self, fd, f: Field) -> Field | None:
        """A second value for singular field `fd` (present as `f`): different from the first."""
        if fd.type == FD.TYPE_STRING:
            return Field(fd.number, LEN, b'second value \xc3\xa9')
        if fd.type == FD.TYPE_BYTES:
            return Field(fd.number, LEN, b'\x00second')
        if fd.type == FD.TYPE_BOOL:
            return Field(fd.number, VARINT, wire.varint(0 if f.int_value() else 1))
        if fd.type == FD.TYPE_ENUM:
            known = [v.number for v in fd.enum_type.values if v.number != f.int_value()]
            return Field(fd.number, VARINT, wire.varint(known[-1] if known else 1))
        if fd.type in (FD.TYPE_INT32, FD.TYPE_INT64, FD.TYPE_UINT64):
            return Field(fd.number, VARINT, wire.varint(f.int_value() + 7))
        if fd.type == FD.TYPE_DOUBLE:
            return Field(fd.number, I64, struct.pack('<d', 0.25))
        if fd.type == FD.TYPE_MESSAGE:
            others = [d for d in self.pool.get(fd.message_type.full_name, []) if d != f.payload]
            if not others:
                return None
            return Field(fd.number, LEN, self.rng.choice(others))
        return None

    def repeats(self):
        """A singular field written twice: the last value wins, a message merges; a oneof gets a
        second member (the last one wins)."""
        targets = [(self.locs[0], i) for i in range(len(wire.split(self.data)))]
        targets = self.sample(targets, 6)
        for loc in self.sample(self.nested, 3):
            n = len(wire.split(loc.data))
            if n:
                targets.append((loc, self.rng.randrange(n)))
        for loc, i in targets:
            f = wire.split(loc.data)[i]
            fd = loc.desc.fields_by_number.get(f.number)
            if fd is None or fd.is_repeated:
                continue
            second = self._other_value(fd, f)
            if second is not None:
                self.add('repeat', f'{loc.name}.{fd.json_name}',
                         self.at(loc, lambda b, s=second: b + s.encode()))
            oneof = fd.containing_oneof
            if oneof is not None and oneof in real_oneofs(loc.desc):
                for other in oneof.fields:
                    if other.number == f.number or not wire.is_message(other):
                        continue
                    inst = self.pool.get(other.message_type.full_name)
                    if inst:
                        new = Field(other.number, LEN, self.rng.choice(inst))
                        self.add('oneof-switch', f'{loc.name}.{fd.json_name}->{other.json_name}',
                                 self.at(loc, lambda b, s=new: b + s.encode()))
                        break

    def map_entries(self):
        """Map entries written the unusual ways protobuf allows: a key twice (the last entry
        wins), an entry with no key (the key is ""), with no value (the value's default), with
        its value before its key."""
        holders = [loc for loc in self.locs
                   if any(wire.is_map(loc.desc.fields_by_number.get(f.number))
                          for f in wire.split(loc.data))]
        for loc in self.sample(holders, 2):
            fields = wire.split(loc.data)
            j, entry = next((j, f) for j, f in enumerate(fields)
                            if wire.is_map(loc.desc.fields_by_number.get(f.number)))
            fd = loc.desc.fields_by_number[entry.number]
            parts = {f.number: f for f in wire.split(entry.payload)}
            key, value = parts.get(1), parts.get(2)
            if key is None or value is None:
                continue
            vfd = fd.message_type.fields_by_name['value']
            other = self._other_value(vfd, value) or value
            name = f'{loc.name}.{fd.json_name}' if loc.path else fd.json_name
            second = Field(entry.number, LEN, key.encode() + other.encode())
            self.add('map-entry', f'key-twice@{name}',
                     self.at(loc, lambda b, s=second: b + s.encode()))
            for kind, body in (('no-key', value.encode()), ('no-value', key.encode()),
                               ('value-first', value.encode() + key.encode())):
                def change(b, j=j, body=body):
                    fs = wire.split(b)
                    fs[j] = Field(fs[j].number, LEN, body)
                    return wire.join(fs)
                self.add('map-entry', f'{kind}@{name}', self.at(loc, change))

    def wrong_wire_types(self):
        """A known field under a wire type that does not fit its kind (skipped by both as an
        unknown field): a singular number in the packed form (LEN), a string as a varint, a
        message as a fixed32 and as a group holding its fields."""
        done = set()
        for loc in self.locs:
            for i, f in enumerate(wire.split(loc.data)):
                fd = loc.desc.fields_by_number.get(f.number)
                if fd is None or fd.is_repeated:
                    continue
                if fd.type in SCALAR_VARINT and 'packed' not in done:
                    kind, new = 'packed', Field(f.number, LEN, f.payload)
                elif fd.type == FD.TYPE_STRING and 'string-as-varint' not in done:
                    kind, new = 'string-as-varint', Field(f.number, VARINT, wire.varint(3))
                elif fd.type == FD.TYPE_MESSAGE and 'message-as-i32' not in done:
                    kind, new = 'message-as-i32', Field(f.number, I32, b'\x01\x02\x03\x04')
                elif (fd.type == FD.TYPE_MESSAGE and 'message-as-group' not in done
                      and f.wire == LEN):
                    # Its own fields between the group's start and end keys: proto2's group
                    # encoding of a message, which a proto3 message field is not.
                    kind, new = 'message-as-group', Field(f.number, SGROUP, f.payload)
                else:
                    continue
                done.add(kind)

                def change(b, i=i, new=new):
                    fields = wire.split(b)
                    fields[i] = new
                    return wire.join(fields)

                self.add('wrong-wire-type', f'{kind}@{loc.name}.{fd.json_name}',
                         self.at(loc, change))

    def truncations(self):
        n = len(self.data)
        if n < 2:
            return
        cuts = {1, n // 4, n // 2, 3 * n // 4, n - 1}
        cuts.add(self.rng.randrange(1, n))
        for cut in sorted(c for c in cuts if 0 < c < n):
            self.add('truncate', f'at-{cut}-of-{n}', self.data[:cut])

    def flips(self):
        for _ in range(min(3, len(self.data))):
            pos = self.rng.randrange(len(self.data))
            xor = self.rng.randrange(1, 256)
            data = bytearray(self.data)
            data[pos] ^= xor
            self.add('flip-byte', f'{pos}^{xor:#04x}', bytes(data))

    def varints(self):
        """Varints written the long way: a value padded with zero groups to 10 bytes (same
        value), to 11 bytes (too long), to 10 bytes whose last byte is above 1 (bits past 64);
        the first key padded to 5 and to 6 bytes; a length prefix padded to 5 bytes."""
        values = [(loc, i, f) for loc in self.locs for i, f in enumerate(wire.split(loc.data))
                  if f.wire == VARINT]
        if values:
            loc, i, f = values[0]
            v = f.int_value()
            for kind, raw in (('padded-10', wire.varint_padded(v, 10)),
                              ('11-bytes', wire.varint_padded(v, 11)),
                              ('10th-byte-0x7f', wire.varint_padded(v, 10, 0x7F)),
                              ('10th-byte-0x02', wire.varint_padded(v, 10, 0x02))):
                def change(b, i=i, raw=raw):
                    fs = wire.split(b)
                    x = fs[i]
                    return wire.join(fs[:i]) + wire.key(x.number, VARINT) + raw + wire.join(
                        fs[i + 1:])
                self.add('varint', f'{kind}@{loc.name}.#{f.number}', self.at(loc, change))
        fields = wire.split(self.data)
        if fields:
            f = fields[0]
            rest = f.encode()[len(wire.key(f.number, f.wire)):] + wire.join(fields[1:])
            for width in (5, 6):
                k = wire.varint_padded(f.number << 3 | f.wire, width)
                self.add('varint', f'key-padded-{width}', k + rest)
        lens = [(j, x) for j, x in enumerate(fields) if x.wire == LEN]
        if lens:
            j, x = lens[0]
            raw = wire.key(x.number, LEN) + wire.varint_padded(len(x.payload), 5) + x.payload
            self.add('varint', f'len-padded-5@#{x.number}',
                     wire.join(fields[:j]) + raw + wire.join(fields[j + 1:]))

    def bad_keys(self):
        """Wire types 6 and 7, field number 0, an end-group with no start, a group closed by
        another number: each at the start or the end of the seed, and three of them inside a
        nested message too."""
        bad = {
            'wire-type-6': ('start', wire.key(1, 6) + b'\x00'),
            'wire-type-7': ('end', wire.key(1, 7) + b'\x00'),
            'field-number-0': ('start', wire.key(0, VARINT) + b'\x01'),
            'end-group-alone': ('end', wire.key(UNKNOWN_NUMBER, wire.EGROUP)),
            'group-mismatched': ('end', wire.key(UNKNOWN_NUMBER, SGROUP)
                                 + wire.key(UNKNOWN_NUMBER + 1, wire.EGROUP)),
        }
        nested = self.sample(self.nested, 1)
        for kind, (pos, raw) in bad.items():
            data = raw + self.data if pos == 'start' else self.data + raw
            self.add('bad-key', f'{kind}-{pos}', data)
            if kind in ('wire-type-6', 'field-number-0', 'group-mismatched'):
                for loc in nested:
                    self.add('bad-key', f'{kind}{self.where(loc)}',
                             self.at(loc, lambda b, raw=raw: b + raw))

    def lengths(self):
        """A length prefix past the end: by one byte, and by 2^31, at the top and nested."""
        for loc in [self.locs[0]] + self.sample(self.nested, 1):
            fields = wire.split(loc.data)
            lens = [j for j, x in enumerate(fields) if x.wire == LEN]
            if not lens:
                continue
            j = lens[-1]
            for kind, extra in (('by-1', 1), ('by-2^31', 1 << 31)):
                def change(b, j=j, extra=extra):
                    fs = wire.split(b)
                    x = fs[j]
                    return (wire.join(fs[:j]) + wire.key(x.number, LEN)
                            + wire.varint(len(x.payload) + extra) + x.payload
                            + wire.join(fs[j + 1:]))
                self.add('len-past-end', f'{kind}{self.where(loc)}', self.at(loc, change))

    def bad_utf8(self):
        strings = [(loc, i, fd) for loc in self.locs for i, f in enumerate(wire.split(loc.data))
                   if (fd := loc.desc.fields_by_number.get(f.number)) is not None
                   and fd.type == FD.TYPE_STRING and f.wire == LEN]
        for (loc, i, fd), (kind, raw) in zip(self.sample(strings, 4), BAD_UTF8.items()):
            def change(b, i=i, raw=raw):
                fs = wire.split(b)
                fs[i] = Field(fs[i].number, LEN, raw)
                return wire.join(fs)
            self.add('invalid-utf8', f'{kind}@{loc.name}.{fd.json_name}', self.at(loc, change))

    def timestamps(self):
        """A Timestamp outside what RFC 3339 can write (years 1 to 9999, nanos 0 to 999999999):
        protobuf's parser takes any int64 seconds and int32 nanos."""
        locs = [loc for loc in self.locs if loc.desc.full_name == TIMESTAMP]
        for loc in locs[:1]:
            for kind, seconds, nanos in (('nanos=-1', 1, -1), ('nanos=1e9', 1, 10**9),
                                         ('seconds=year-10000', 253402300800, 0),
                                         ('seconds=year-0', -62135596801, 0)):
                body = (Field(1, VARINT, wire.varint(seconds)).encode()
                        + Field(2, VARINT, wire.varint(nanos)).encode())
                self.add('timestamp-range', f'{kind}@{loc.name}', self.at(loc, lambda b, x=body: x))

    def all(self) -> list:
        self.add('seed', 'as-serialized', self.data)
        for step in (self.unknown_fields, self.unknown_enums, self.unknown_oneof_members,
                     self.reorder, self.repeats, self.map_entries, self.wrong_wire_types,
                     self.truncations, self.flips, self.varints, self.bad_keys, self.lengths,
                     self.bad_utf8,
                     self.timestamps):
            step()
        return self.cases


def _value_bytes(kind: str, payload) -> bytes:
    """A google.protobuf.Value's body."""
    if kind == 'number':
        return Field(2, I64, struct.pack('<d', payload)).encode()
    if kind == 'list':
        return Field(6, LEN, b''.join(Field(1, LEN, v).encode() for v in payload)).encode()
    if kind == 'struct':
        return Field(5, LEN, payload).encode()
    raise ValueError(kind)


def special() -> list:
    """Cases built byte by byte that no seed leads to: doubles ProtoJSON cannot print in a Value,
    and nesting around the depth limit (100 on both sides)."""
    out = []
    for kind, x in (('nan', float('nan')), ('inf', float('inf')), ('-inf', float('-inf'))):
        value = _value_bytes('number', x)
        entry = Field(1, LEN, b'x').encode() + Field(2, LEN, value).encode()
        metadata = Field(1, LEN, entry).encode()
        task = Field(1, LEN, b't-1').encode() + Field(6, LEN, metadata).encode()
        out.append({'id': f'special/value-number/{kind}-in-Task.metadata', 'type': 'Task',
                    'class': 'value-number', 'data': task})
        part = Field(4, LEN, _value_bytes('list', [value])).encode()
        out.append({'id': f'special/value-number/{kind}-in-Part.data', 'type': 'Part',
                    'class': 'value-number', 'data': part})
    # Part (depth 0) > data: Value (1) > ListValue (2) > Value (3) > ...: the innermost message at
    # depth `depth`.
    for depth in range(96, 104):
        inner = b'' if depth % 2 == 1 else _value_bytes('struct', b'')
        levels = (depth - 1) // 2
        v = inner
        for _ in range(levels):
            v = _value_bytes('list', [v])
        out.append({'id': f'special/depth/innermost-at-{depth}', 'type': 'Part', 'class': 'depth',
                    'data': Field(4, LEN, v).encode()})
    return out


def all_cases(all_seeds: list) -> list:
    pool: dict[str, list] = {}
    for _, type_name, data in all_seeds:
        for loc in wire.locations(message_class(type_name).DESCRIPTOR, data):
            bucket = pool.setdefault(loc.desc.full_name, [])
            if loc.data not in bucket:
                bucket.append(loc.data)
    cases = []
    for name, type_name, data in all_seeds:
        cases += Mutator(name, type_name, data, pool).all()
    return cases + special()
