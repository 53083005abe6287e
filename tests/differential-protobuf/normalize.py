"""One form for both decoders' values, so that equal messages compare equal (README.md, "How
values are compared"). Guided by the message's descriptor: each member is read as the kind of
its field.

- members holding a default (`""`, 0, `false`, `[]`, `{}`, an enum's zero value) are dropped, at
  every depth of the messages (not inside Struct/Value, where both sides keep JSON as it is);
- numbers are floats (MessageToDict and serde_json print 1 and 1.0 differently);
- a Timestamp is its instant, `seconds.nanos` (RFC 3339 parsed, any offset or precision); one
  RFC 3339 cannot write is `@seconds,nanos` as received (our decoder keeps it so);
- an enum is its name; a number the enum does not know is its decimal string (MessageToDict
  writes the int 42, our serializer 42 too, a JSON reader may give "42");
- bytes are their hex, from standard or URL-safe base64, padded or not;
- a double ProtoJSON cannot print (NaN, the infinities) in a Value is null, which is what our
  `serde_json::Value` holds for it.

A member of the JSON that the descriptor does not have is kept under `?name`, so it shows as a
difference.
"""

import base64
import datetime
import math
import re

from google.protobuf.descriptor import FieldDescriptor as FD

import wire

TIMESTAMP = 'google.protobuf.Timestamp'
JSON_TYPES = ('google.protobuf.Struct', 'google.protobuf.Value', 'google.protobuf.ListValue')
NUMBERS = (FD.TYPE_INT32, FD.TYPE_INT64, FD.TYPE_UINT64, FD.TYPE_DOUBLE, FD.TYPE_FLOAT,
           FD.TYPE_UINT32, FD.TYPE_SINT32, FD.TYPE_SINT64, FD.TYPE_FIXED32, FD.TYPE_FIXED64,
           FD.TYPE_SFIXED32, FD.TYPE_SFIXED64)
RFC3339 = re.compile(r'(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?'
                     r'(?:([Zz])|([+-])(\d\d):(\d\d))$')
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def is_default(v) -> bool:
    if v is None or isinstance(v, bool):
        return v is False
    if isinstance(v, (int, float)):
        return v == 0
    return v in ('', [], {})


def json_value(v):
    """A Struct/Value/ListValue's JSON: numbers as floats, NaN and the infinities as null."""
    if isinstance(v, dict):
        return {k: json_value(x) for k, x in v.items()}
    if isinstance(v, list):
        return [json_value(x) for x in v]
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    f = float(v)
    return None if math.isnan(f) or math.isinf(f) else f


def timestamp(v):
    """`seconds.nanos` of an RFC 3339 string; a timestamp RFC 3339 cannot write, as our decoder
    keeps it (`@seconds,nanos`, as received) and as normalize.plain gives the SDK's
    (`{seconds, nanos}`), is `@seconds,nanos`."""
    if isinstance(v, dict):
        return f"@{v.get('seconds', 0)},{v.get('nanos', 0)}"
    if isinstance(v, str) and v.startswith('@'):
        return v
    m = RFC3339.match(v) if isinstance(v, str) else None
    if m is None:
        return ('not a timestamp', v)
    y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
    nanos = int((m.group(7) or '').ljust(9, '0'))
    t = datetime.datetime(y, mo, d, h, mi, s, tzinfo=datetime.timezone.utc)
    if m.group(9):
        offset = (int(m.group(10)) * 60 + int(m.group(11))) * 60
        t -= datetime.timedelta(seconds=offset if m.group(9) == '+' else -offset)
    delta = t - EPOCH
    return f'{delta.days * 86400 + delta.seconds}.{nanos:09d}'


def _bytes(v):
    if not isinstance(v, str):
        return ('not base64', v)
    text = v.replace('-', '+').replace('_', '/')
    return base64.b64decode(text + '=' * (-len(text) % 4)).hex()


def value(fd, v):
    """One value of field `fd` (an element, for a repeated field)."""
    if wire.is_message(fd):
        name = fd.message_type.full_name
        if name == TIMESTAMP:
            return timestamp(v)
        if name in JSON_TYPES:
            return json_value(v)
        return message(fd.message_type, v)
    if fd.type == FD.TYPE_ENUM:
        if isinstance(v, str) and v in fd.enum_type.values_by_name:
            v = fd.enum_type.values_by_name[v].number
        elif isinstance(v, str) and re.fullmatch(r'-?\d+', v):
            v = int(v)
        if isinstance(v, int) and not isinstance(v, bool):
            if v == 0:
                return ''
            known = fd.enum_type.values_by_number.get(v)
            return known.name if known else str(v)
        return ('not an enum', v)
    if fd.type == FD.TYPE_BYTES:
        return _bytes(v)
    if fd.type in NUMBERS:
        try:
            return float(v)
        except (TypeError, ValueError):
            return ('not a number', v)
    return v


def message(desc, obj):
    """A message's JSON object in the compared form."""
    if desc.full_name == TIMESTAMP:
        return timestamp(obj)
    if desc.full_name in JSON_TYPES:
        return json_value(obj)
    if not isinstance(obj, dict):
        return ('not an object', obj)
    by_json = {fd.json_name: fd for fd in desc.fields}
    out = {}
    for k, v in obj.items():
        fd = by_json.get(k)
        if fd is None:
            out['?' + k] = v
            continue
        if wire.is_map(fd):
            vfd = fd.message_type.fields_by_name['value']
            nv = {str(key): value(vfd, x) for key, x in v.items()} if isinstance(v, dict) else (
                'not a map', v)
        elif fd.is_repeated:
            nv = [value(fd, x) for x in v] if isinstance(v, list) else ('not a list', v)
        else:
            nv = value(fd, v)
        if not is_default(nv):
            out[k] = nv
    return out


def first_difference(a, b, path: str = '') -> str:
    """Where two compared forms first differ, and how (a is the SDK's, b ours)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in b:
                return f'{path}.{k}: only the SDK has it: {a[k]!r}'
            if k not in a:
                return f'{path}.{k}: only ours has it: {b[k]!r}'
            if a[k] != b[k]:
                return first_difference(a[k], b[k], f'{path}.{k}')
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f'{path}: {len(a)} elements in the SDK\'s, {len(b)} in ours'
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f'{path}[{i}]')
    return f'{path or "(top)"}: the SDK {a!r}, ours {b!r}'


# ---- the SDK's value when MessageToDict cannot print it ----

def plain(msg):
    """What MessageToDict gives, for the values it refuses to print: a Timestamp out of RFC
    3339's range as `{seconds, nanos}`, a NaN or infinite number in a Value as that float."""
    name = msg.DESCRIPTOR.full_name
    if name == TIMESTAMP:
        try:
            return msg.ToJsonString()
        except ValueError:
            return {'seconds': msg.seconds, 'nanos': msg.nanos}
    if name == 'google.protobuf.Value':
        kind = msg.WhichOneof('kind')
        if kind in (None, 'null_value'):
            return None
        if kind in ('struct_value', 'list_value'):
            return plain(getattr(msg, kind))
        return getattr(msg, kind)
    if name == 'google.protobuf.Struct':
        return {k: plain(v) for k, v in msg.fields.items()}
    if name == 'google.protobuf.ListValue':
        return [plain(v) for v in msg.values]
    out = {}
    for fd, v in msg.ListFields():
        if wire.is_map(fd):
            vfd = fd.message_type.fields_by_name['value']
            out[fd.json_name] = {k: _plain_value(vfd, x) for k, x in v.items()}
        elif fd.is_repeated:
            out[fd.json_name] = [_plain_value(fd, x) for x in v]
        else:
            out[fd.json_name] = _plain_value(fd, v)
    return out


def _plain_value(fd, v):
    if wire.is_message(fd):
        return plain(v)
    if fd.type == FD.TYPE_ENUM:
        known = fd.enum_type.values_by_number.get(v)
        return known.name if known else v
    if fd.type == FD.TYPE_BYTES:
        return base64.b64encode(v).decode()
    return v
