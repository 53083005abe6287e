"""The protobuf differential: a2a-types' generated protobuf decoder against a2a-sdk 1.3.0's own
protobuf classes (`a2a.types.a2a_pb2`, on the Python protobuf runtime, upb).

    python differential.py --classify CLASSIFY_PROTOBUF --out WORK_DIR --shared SHARED_DIR

Builds the cases (cases.py: the captured results and params and the hand-built messages,
serialized by the SDK's classes, and mutations of their bytes), reads each with the SDK
(`cls.FromString`, then `json_format.MessageToDict`) and with ours (one run of the
classify_protobuf example for all of them), and compares:

- the SDK accepts, we refuse: STRICTER, a failure;
- both accept and the values differ after normalization (normalize.py): DIFFERENT, a failure;
- we accept, the SDK refuses: laxer, counted by kind of mutation, with the reason README.md
  gives (LAXER below); not a failure;
- both refuse: agree.

Also a failure: a type of the SDK's a2a_pb2 that classify_protobuf cannot decode, a field of the
proto that no seed sets, fewer seeds or cases than expected (so that the test cannot pass
vacuously), a panic or a missing line of ours. Exit status 1 on any failure, 2 when the test
could not run as meant (no captures under CI, the example failing).
"""

import argparse
import base64
import collections
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from google.protobuf import json_format, unknown_fields

import cases as case_table
import normalize
import wire

# The least the run must see with the captures present (27 captured seeds and 4,683 cases on
# 2026-12-06): a change that silently drops seeds or mutations fails.
MIN_CAPTURED_SEEDS = 25
MIN_CASES = 4000
# The spec's own examples that are whole messages (33 on 2026-12-06, from
# a2a-tck/specification/specification.md).
MIN_SPEC_SEEDS = 30

# Why we accept what the SDK refuses, by kind (`class/what`, see `kind_of`); README.md says the
# same at length. A kind not listed here is printed as NEW: explain it there and here.
LAXER = {
    'varint/key-padded-6': 'a key written as a 6-byte varint (zero groups padding it): upb reads '
    'keys as 32-bit varints of at most 5 bytes; we read every varint up to 10 bytes and then '
    'check the field number (as prost and protobuf-go do)',
}


# Stricter or different outcomes that stay so by design, each with its reason (README.md, "By
# design"): a predicate over (case, sdk outcome, our outcome, verdict). An entry that matches no
# case fails the run, so a changed decoder cannot leave a stale excuse behind.
BY_DESIGN = {
    'field 0 in google.protobuf.Empty': (
        lambda c, sdk, mine, verdict: verdict == 'stricter' and c['type'] == 'Empty'
        and 'invalid field number 0' in (mine.get('error') or ''),
        'field number 0 is not a valid key (the protobuf encoding spec); upb refuses it in every '
        'A2A message but skips it in a message with no fields at all. Empty is only the reply to '
        'DeleteTaskPushNotificationConfig, whose content nobody reads; we refuse field 0 '
        'everywhere, as prost and protobuf-go do'),
    'a map entry holding an unknown field': (
        lambda c, sdk, mine, verdict: verdict == 'different'
        and bool(sdk.get('entries_set_aside')),
        'upb takes a map entry that holds a field it does not know out of the map (to keep the '
        'bytes), so the SDK\'s value loses the entry; we skip the unknown field and keep the '
        'entry, as prost and protobuf-go do: more of the value, never less'),
}


def kind_of(case: dict) -> str:
    """The kind a case is counted under (laxer, stricter, different): its class, and for the
    classes whose `what` names a fixed variant, that variant (without the position)."""
    what = case['id'].split('/', 2)[2]
    if case['class'] in ('flip-byte', 'truncate', 'repeat', 'oneof-switch', 'reorder'):
        return case['class']
    return f"{case['class']}/{what.split('@')[0]}"


class Harness(Exception):
    """The test cannot run as meant."""


def sdk_outcome(type_name: str, data: bytes) -> dict:
    """The SDK's parser on the bytes: `{'ok': True, 'json': MessageToDict}` or the exception.
    When the parser accepts a value ProtoJSON cannot print (NaN in a Value, a Timestamp out of
    RFC 3339's range), MessageToDict raises; the value is then written by normalize.plain, and
    `unprintable` says why."""
    try:
        msg = case_table.message_class(type_name).FromString(data)
    except Exception as e:  # noqa: BLE001 (any refusal of the parser is an outcome)
        return {'ok': False, 'error': f'{type(e).__name__}: {e}'}
    try:
        out = {'ok': True, 'json': json_format.MessageToDict(msg)}
    except Exception as e:  # noqa: BLE001
        out = {'ok': True, 'json': normalize.plain(msg), 'unprintable': f'{e}'}
    set_aside = entries_set_aside(msg)
    if set_aside:
        out['entries_set_aside'] = set_aside
    return out


def entries_set_aside(msg) -> list[str]:
    """The map fields, at any depth, of which upb set an entry aside as an unknown field of the
    message holding the map (what it does to an entry that holds a field it does not know, to
    keep the bytes for re-encoding): `Message.field` once per entry."""
    out = []
    desc = msg.DESCRIPTOR
    maps = {fd.number: fd for fd in desc.fields if wire.is_map(fd)}
    if maps:
        for f in unknown_fields.UnknownFieldSet(msg):
            if f.field_number in maps:
                out.append(f'{desc.name}.{maps[f.field_number].name}')
    for fd, value in msg.ListFields():
        if not wire.is_message(fd):
            continue
        if wire.is_map(fd):
            vfd = fd.message_type.fields_by_name['value']
            items = list(value.values()) if wire.is_message(vfd) else []
        else:
            items = list(value) if fd.is_repeated else [value]
        for item in items:
            out += entries_set_aside(item)
    return out


def run_ours(binary: Path, cases: list, work: Path) -> dict:
    lines = [{'id': c['id'], 'type': c['type'], 'b64': base64.b64encode(c['data']).decode()}
             for c in cases]
    return run_lines(binary, lines, work / 'cases.jsonl')


def run_lines(binary: Path, lines: list, path: Path) -> dict:
    """classify_protobuf over these input lines (written to `path`): its output lines by id."""
    with path.open('w') as f:
        for line in lines:
            f.write(json.dumps(line) + '\n')
    done = subprocess.run([str(binary), str(path)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise Harness(f'{binary} failed (exit {done.returncode}):\n{done.stderr}')
    # Split at LF only: serde_json writes U+2028 and friends as they are, which
    # str.splitlines would split at.
    lines = [json.loads(line) for line in done.stdout.split('\n') if line.strip()]
    return {line['id']: line for line in lines}


def round_trip(binary: Path, seeds: list, work: Path) -> tuple[int, list]:
    """JSON -> our types -> protobuf -> the SDK's parser -> ProtoJSON -> our types, on every
    seed (the captures and the hand-built messages): the SDK must read our bytes as the message
    it serialized the seed to, and our value must come back equal. Returns (seeds tried,
    failures)."""
    first = []
    wanted = {}
    for name, type_name, data in seeds:
        msg = case_table.message_class(type_name).FromString(data)
        try:
            json_value = json_format.MessageToDict(msg)
        except Exception:  # noqa: BLE001 (a value ProtoJSON cannot print has no JSON to start from)
            continue
        first.append({'id': f'{name}/round-trip', 'type': type_name, 'json': json_value})
        wanted[f'{name}/round-trip'] = msg
    ours = run_lines(binary, first, work / 'round-trip-1.jsonl')
    failures = []
    second = []
    for case in first:
        cid, cls = case['id'], case_table.message_class(case['type'])
        mine = ours.get(cid) or {}
        if not mine.get('ok') or 'b64' not in mine:
            failures.append(f"{cid}: we do not read the SDK's ProtoJSON: {short(mine, 300)}")
            continue
        try:
            back = cls.FromString(base64.b64decode(mine['b64']))
        except Exception as e:  # noqa: BLE001
            failures.append(f'{cid}: the SDK refuses our bytes: {e}')
            continue
        if back != wanted[cid]:
            failures.append(f'{cid}: the SDK reads our bytes as another message: '
                            f'{short(json_format.MessageToDict(back), 300)}')
            continue
        second.append({'id': cid, 'type': case['type'], 'json': json_format.MessageToDict(back)})
    again = run_lines(binary, second, work / 'round-trip-2.jsonl')
    for case in second:
        cid = case['id']
        before, after = ours[cid].get('json'), (again.get(cid) or {}).get('json')
        if before != after:
            failures.append(f'{cid}: our value changed on the way round: {short(after, 300)}')
    return len(first), failures


def short(text: str, n: int = 160) -> str:
    text = ' '.join(str(text).split())
    return text if len(text) <= n else text[:n - 3] + '...'


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--classify', required=True, type=Path, help='the built classify_protobuf')
    ap.add_argument('--out', required=True, type=Path, help='where cases.jsonl and report.json go')
    ap.add_argument('--shared', required=True, type=Path, help='the shared reference folder')
    args = ap.parse_args()
    started = time.monotonic()
    args.out.mkdir(parents=True, exist_ok=True)
    if not (args.shared / case_table.CAPTURES).is_dir():
        where = args.shared / case_table.CAPTURES
        if os.environ.get('CI'):
            print(f'FAILED: no captured SDK messages at {where}; CI must run with them '
                  '(lay shared/ beside the checkout or set A2A_SHARED_DIR)')
            return 2
        print(f'SKIPPED differential-protobuf: no folder {where} (set A2A_SHARED_DIR)')
        return 0

    failures = []
    seeds, skipped = case_table.seeds(args.shared)
    n_spec = sum(name.startswith('spec.') for name, _, _ in seeds)
    n_captured = sum(not name.startswith(('hand.', 'spec.')) for name, _, _ in seeds)
    print(f'differential-protobuf: {len(seeds)} seeds ({n_captured} from the captures, '
          f'{n_spec} from the spec\'s examples, {len(seeds) - n_captured - n_spec} hand-built); '
          f'passed over: {len(skipped)}')
    for line in skipped:
        print(f'  passed over: {line}')
    if n_captured < MIN_CAPTURED_SEEDS:
        failures.append(f'only {n_captured} seeds from the captures, at least '
                        f'{MIN_CAPTURED_SEEDS} expected')
    if n_spec < MIN_SPEC_SEEDS:
        failures.append(f'only {n_spec} seeds from the spec\'s examples, at least '
                        f'{MIN_SPEC_SEEDS} expected')
    for field in case_table.coverage(seeds):
        failures.append(f'no seed sets {field}: add it to a hand-built seed (cases.HAND)')
    ours_types = subprocess.run([str(args.classify), '--types'], capture_output=True, text=True,
                                check=False).stdout.split()
    for name in sorted(set(case_table.all_type_names()) - set(ours_types)):
        failures.append(f'classify_protobuf cannot decode {name} (add it to its `types!`)')

    cases = case_table.all_cases(seeds)
    if len(cases) < MIN_CASES:
        failures.append(f'only {len(cases)} cases, at least {MIN_CASES} expected')
    try:
        if len({c['id'] for c in cases}) != len(cases):
            raise Harness('two cases with one id')
        ours = run_ours(args.classify, cases, args.out)
    except Harness as e:
        print(f'FAILED (the test could not run): {e}')
        return 2

    counts = collections.Counter()
    laxer = collections.defaultdict(list)
    by_class = collections.defaultdict(collections.Counter)
    by_design = collections.Counter()
    bad = []
    report = []
    unprintable = 0
    for c in cases:
        sdk = sdk_outcome(c['type'], c['data'])
        mine = ours.get(c['id'])
        desc = case_table.message_class(c['type']).DESCRIPTOR
        verdict, detail = None, ''
        if mine is None:
            verdict, detail = 'missing', 'classify_protobuf printed no line'
        elif 'panic' in mine:
            verdict, detail = 'panic', mine['panic']
        elif mine.get('ok') and 'json' not in mine:
            verdict, detail = 'missing', f"no json: {mine.get('serialize_error')}"
        elif sdk['ok'] and not mine['ok']:
            verdict = 'stricter'
        elif sdk['ok'] and mine['ok']:
            unprintable += 'unprintable' in sdk
            a = normalize.message(desc, sdk['json'])
            b = normalize.message(desc, mine['json'])
            if a == b:
                verdict = 'equal'
            else:
                verdict, detail = 'different', normalize.first_difference(a, b)
        elif mine['ok']:
            verdict = 'laxer'
            laxer[kind_of(c)].append((c, sdk))
        else:
            verdict = 'both-refuse'
        design = next((name for name, (matches, _) in BY_DESIGN.items()
                       if mine is not None and matches(c, sdk, mine, verdict)), None)
        if design:
            by_design[design] += 1
        counts[verdict] += 1
        by_class[c['class']][verdict] += 1
        if verdict in ('stricter', 'different', 'panic', 'missing') and not design:
            bad.append((c, sdk, mine, verdict, detail))
        report.append({'id': c['id'], 'type': c['type'], 'class': c['class'],
                       'hex': c['data'].hex(), 'verdict': verdict, 'sdk': sdk, 'ours': mine})
    (args.out / 'report.json').write_text(json.dumps(report, indent=1, default=str))

    for c, sdk, mine, verdict, detail in bad:
        print(f"{verdict.upper()}: {c['id']}  [{c['type']}, {len(c['data'])} bytes]")
        print(f"  bytes: {c['data'].hex()}")
        sdk_text = (f"accepts: {short(json.dumps(sdk['json'], default=str), 300)}" if sdk['ok']
                    else f"refuses: {sdk['error']}")
        if sdk.get('unprintable'):
            sdk_text += f" (MessageToDict: {sdk['unprintable']})"
        print(f'  sdk:  {sdk_text}')
        if mine is not None:
            ours_text = (f"accepts: {short(json.dumps(mine.get('json')), 300)}" if mine.get('ok')
                         else f"refuses: {mine.get('error') or mine.get('panic')}")
            print(f'  ours: {ours_text}')
        if detail:
            print(f'  difference: {short(detail, 400)}')
        if sdk.get('entries_set_aside'):
            print(f"  the SDK set aside, as unknown fields, entries of: "
                  f"{', '.join(sdk['entries_set_aside'])}")
    if laxer:
        print('laxer (we accept, the SDK refuses), by kind:')
    for kind, group in sorted(laxer.items()):
        reason = LAXER.get(kind)
        print(f'  {kind}: {len(group)}' + (f': {reason}' if reason else
                                          ': NEW, no reason recorded: explain it in README.md'))
        for c, sdk in group[:3]:
            print(f"    {c['id']}: the SDK: {short(sdk['error'], 120)}")
        if len(group) > 3:
            print(f'    ... and {len(group) - 3} more (report.json)')
    print('by mutation class (equal / both refuse / laxer / stricter / different):')
    for cls, n in sorted(by_class.items()):
        print(f"  {cls:16} {sum(n.values()):5}: {n['equal']} / {n['both-refuse']} / "
              f"{n['laxer']} / {n['stricter']} / {n['different']}"
              + (f" / panic {n['panic']}" if n['panic'] else ''))
    failing = collections.defaultdict(collections.Counter)
    for c, sdk, _, verdict, _ in bad:
        kind = kind_of(c)
        if verdict == 'different' and sdk.get('entries_set_aside'):
            kind = 'a map entry the SDK set aside as unknown'
        elif c['class'] == 'unknown-field':
            kind = 'unknown-field'
        failing[verdict][kind] += 1
    for verdict, kinds in sorted(failing.items()):
        print(f'{verdict} (failures), by kind: '
              + ', '.join(f'{k} {n}' for k, n in sorted(kinds.items())))
    for name, (_, reason) in BY_DESIGN.items():
        if by_design[name]:
            print(f'by design: {name}: {by_design[name]}: {reason}')
        else:
            failures.append(f'the by-design entry "{name}" matched no case: remove it')
    for problem in failures:
        print(f'FAILED: {problem}')

    lax_text = ', '.join(f'{k} {len(v)}' for k, v in sorted(laxer.items()))
    print(f"differential-protobuf: {len(cases):,} cases: {counts['equal']:,} both accept (equal), "
          f"{counts['both-refuse']:,} both refuse, {counts['laxer']:,} we accept and the SDK "
          f"refuses (laxer: {lax_text or 'none'}), {counts['stricter']} stricter, "
          f"{counts['different']} different"
          + (f", {counts['panic']} panics" if counts['panic'] else '')
          + (f", {counts['missing']} missing" if counts['missing'] else ''))
    print(f'({unprintable} accepted values ProtoJSON cannot print were compared through '
          f'normalize.plain; every outcome: {args.out / "report.json"}; '
          f'{time.monotonic() - started:.1f}s)')
    tried, trip_failures = round_trip(args.classify, seeds, args.out)
    for problem in trip_failures:
        print(f'FAILED (round trip): {problem}')
    if tried < MIN_CAPTURED_SEEDS:
        trip_failures.append(f'only {tried} seeds went round')
    print(f'round trip (JSON -> ours -> protobuf -> the SDK -> ProtoJSON -> ours): {tried} seeds, '
          f'{tried - len(trip_failures)} equal all the way')
    failed = len(bad) + len(failures) + len(trip_failures)
    print(f'{len(cases) - len(bad)} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
