"""The protobuf wire format, just enough to take a message apart field by field and put it back.

A message is a list of `Field`s (number, wire type, payload) in wire order; `split` reads one
level (strictly: it raises `WireError` on anything malformed, which never happens for the bytes
of a serialized seed), `join` writes it back byte for byte. Nested messages are reached with
`locations` and changed with `rewrite`, both guided by the message's descriptor (a LEN field is
a message when the descriptor says so), so every change is made where the SDK's parser and ours
will both look for it.
"""

from dataclasses import dataclass

from google.protobuf.descriptor import FieldDescriptor

VARINT, I64, LEN, SGROUP, EGROUP, I32 = range(6)
WIRE_NAMES = {VARINT: 'varint', I64: 'i64', LEN: 'len', SGROUP: 'group', I32: 'i32'}
MASK64 = (1 << 64) - 1


class WireError(Exception):
    """Bytes that are not a well-formed message (only raised while taking seeds apart)."""


def varint(n: int) -> bytes:
    """The canonical varint of `n` (a negative number as its 64-bit two's complement)."""
    n &= MASK64
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def varint_padded(n: int, width: int, last: int = 0) -> bytes:
    """`n` as a varint of exactly `width` bytes (`width` up to 11): the canonical groups, then
    continuation bytes of zero, then `last` as the final byte (0 keeps the value; anything else
    sets bits past where `n` ends, or past 64 for a 10th byte above 1)."""
    n &= MASK64
    groups = []
    while True:
        groups.append(n & 0x7F)
        n >>= 7
        if not n:
            break
    if len(groups) >= width:
        raise ValueError(f'{len(groups)} groups do not fit in {width} bytes')
    groups += [0] * (width - 1 - len(groups)) + [last]
    return bytes([g | 0x80 for g in groups[:-1]] + [groups[-1]])


def read_varint(data: bytes, i: int) -> tuple[int, int]:
    """The varint at `data[i:]` and the index after it; at most 10 bytes."""
    value = 0
    for shift in range(0, 70, 7):
        if i >= len(data):
            raise WireError('truncated varint')
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value & MASK64, i
    raise WireError('varint longer than 10 bytes')


def key(number: int, wire: int) -> bytes:
    return varint(number << 3 | wire)


@dataclass
class Field:
    """One field on the wire. `payload` is what follows the key: a varint's bytes as written,
    eight or four bytes, a LEN field's content (without its length), a group's body (between its
    start and end keys)."""

    number: int
    wire: int
    payload: bytes

    def encode(self) -> bytes:
        if self.wire == LEN:
            return key(self.number, LEN) + varint(len(self.payload)) + self.payload
        if self.wire == SGROUP:
            return key(self.number, SGROUP) + self.payload + key(self.number, EGROUP)
        return key(self.number, self.wire) + self.payload

    def int_value(self) -> int:
        return read_varint(self.payload, 0)[0]


def _skip(data: bytes, i: int, number: int, wire: int) -> int:
    if wire == VARINT:
        return read_varint(data, i)[1]
    if wire == I64:
        end = i + 8
    elif wire == I32:
        end = i + 4
    elif wire == LEN:
        n, i = read_varint(data, i)
        end = i + n
    elif wire == SGROUP:
        while True:
            k, i = read_varint(data, i)
            if k & 7 == EGROUP:
                if k >> 3 != number:
                    raise WireError('group closed with another number')
                return i
            i = _skip(data, i, k >> 3, k & 7)
    else:
        raise WireError(f'wire type {wire}')
    if end > len(data):
        raise WireError('truncated field')
    return end


def split(data: bytes) -> list[Field]:
    """The top-level fields of a message, in wire order."""
    fields = []
    i = 0
    while i < len(data):
        k, i = read_varint(data, i)
        number, wire = k >> 3, k & 7
        if number == 0 or wire in (EGROUP, 6, 7):
            raise WireError(f'bad key {k}')
        start = i
        i = _skip(data, i, number, wire)
        if wire == LEN:
            _, start = read_varint(data, start)
            payload = data[start:i]
        elif wire == SGROUP:
            payload = data[start:i - len(key(number, EGROUP))]
        else:
            payload = data[start:i]
        fields.append(Field(number, wire, payload))
    return fields


def join(fields: list[Field]) -> bytes:
    return b''.join(f.encode() for f in fields)


def is_message(fd) -> bool:
    return fd is not None and fd.type == FieldDescriptor.TYPE_MESSAGE


def is_map(fd) -> bool:
    return is_message(fd) and fd.message_type.GetOptions().map_entry


@dataclass
class Location:
    """A message inside a seed: the field indexes leading to it (one per level, each an index
    into `split` of the level above), a readable name (`status.message.parts[0]`), its
    descriptor and its bytes."""

    path: tuple
    name: str
    desc: object
    data: bytes


def locations(desc, data: bytes, path: tuple = (), name: str = '') -> list[Location]:
    """The message itself and every message nested in it, depth first, in wire order."""
    out = [Location(path, name or '(top)', desc, data)]
    seen: dict[int, int] = {}
    for i, f in enumerate(split(data)):
        fd = desc.fields_by_number.get(f.number)
        if not is_message(fd) or f.wire != LEN:
            continue
        k = seen.get(f.number, 0)
        seen[f.number] = k + 1
        step = fd.json_name + (f'[{k}]' if fd.is_repeated else '')
        child = f'{name}.{step}' if name else step
        out += locations(fd.message_type, f.payload, path + (i,), child)
    return out


def rewrite(data: bytes, desc, path: tuple, change) -> bytes:
    """`data` with the message at `path` replaced by `change(its bytes)`; every length prefix on
    the way is written again."""
    if not path:
        return change(data)
    fields = split(data)
    f = fields[path[0]]
    sub = desc.fields_by_number[f.number].message_type
    fields[path[0]] = Field(f.number, f.wire, rewrite(f.payload, sub, path[1:], change))
    return join(fields)
