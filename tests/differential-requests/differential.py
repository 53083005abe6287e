"""The request differential: a2a-types' decode_request against a2a-sdk 1.3.0's server.

    python differential.py CLASSIFY_REQUEST_BINARY WORK_DIR

Builds every case of cases.py, sends each to the SDK's JSON-RPC app in process (sdk.py), runs the
same bodies through our generated decoder (the classify_request example), and compares:

- STRICTER: the SDK accepts, we refuse. A failure unless allow.toml lists the case with a reason.
- MORE TOLERANT: we accept, the SDK refuses. Listed by kind of mutation; not a failure, except
  when the mutation removed, nulled or emptied a field that our `requires` list
  (spec/*/methods.toml) names: then the list and the generated check disagree.

Also a failure: an allow.toml entry that matches no stricter case, and a `requires` entry that no
case removes (the list must be measured, not guessed). Prints, per version,
`v1 requests: stricter S of N accepted; more tolerant M of K refused`, the cases, and ends with
`N passed, M failed`. Exit status 1 on any failure, 2 when the tool itself cannot run.
"""

import asyncio
import collections
import json
import logging
import subprocess
import sys
import tomllib
from pathlib import Path

import cases as case_table
import sdk

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SPECS = ('v1', 'v0_3')
MISSING_KINDS = ('drop', 'null', 'empty')


def load_requires() -> dict:
    """{spec: {method: [dotted path, ...]}} from spec/<version>/methods.toml."""
    out = {}
    for spec in SPECS:
        table = tomllib.loads((ROOT / 'spec' / spec / 'methods.toml').read_text())
        out[spec] = {m['name']: list(m.get('requires', [])) for m in table['method']}
    return out


def load_allow() -> tuple[dict, list]:
    """{case name: reason} from allow.toml, and the problems of the file itself.

    Each `[[allow]]` entry has a `reason` and names its cases with `case = "..."` or
    `cases = ["...", ...]` (one reason shared by cases that differ for the same cause)."""
    path = HERE / 'allow.toml'
    problems = []
    allow = {}
    for i, entry in enumerate(tomllib.loads(path.read_text()).get('allow', [])):
        names = entry.get('cases', [])
        if 'case' in entry:
            names = [entry['case'], *names]
        reason = ' '.join(str(entry.get('reason', '')).split())
        unknown = set(entry) - {'case', 'cases', 'reason'}
        if not names or not all(isinstance(n, str) for n in names) or not reason or unknown:
            problems.append(
                f'allow.toml entry {i + 1}: needs `case` (or `cases`) and a non-empty `reason`, '
                'and nothing else'
            )
            continue
        for name in names:
            if name in allow:
                problems.append(f'allow.toml entry {i + 1}: `{name}` is listed twice')
            allow[name] = reason
    return allow, problems


async def run_sdk(cases: list) -> dict:
    """{case name: outcome} of the SDK's server."""
    server = sdk.SdkServer()
    try:
        out = {}
        for case in cases:
            out[case['name']] = sdk.outcome(await server.post(case['spec'], case['body']))
        return out
    finally:
        await server.aclose()


def run_ours(binary: str, cases: list, work: Path) -> dict:
    """{case name: outcome} of a2a-types' decode_request, through the classify_request example."""
    path = work / 'request-cases.json'
    path.write_text(json.dumps([{k: c[k] for k in ('name', 'spec', 'body')} for c in cases]))
    done = subprocess.run([binary, str(path)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f'differential: {binary} failed (exit {done.returncode}):\n{done.stderr}')
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {line['name']: line for line in lines}


def short(outcome: dict) -> str:
    if outcome['outcome'] == 'accepted':
        code = outcome.get('code')
        return 'accepted' + (f' ({code})' if code is not None else '')
    reason = ' '.join(str(outcome.get('reason')).split())
    if len(reason) > 140:
        reason = reason[:137] + '...'
    return f"refused {outcome.get('code')}: {reason}"


def main() -> int:
    if len(sys.argv) != 3:
        print('usage: differential.py CLASSIFY_REQUEST_BINARY WORK_DIR', file=sys.stderr)
        return 2
    binary, work = sys.argv[1], Path(sys.argv[2])
    work.mkdir(parents=True, exist_ok=True)
    # The SDK logs every refusal with a traceback; the outcomes are what matter here.
    logging.disable(logging.CRITICAL)

    cases = case_table.all_cases()
    requires = load_requires()
    allow, failures = load_allow()
    theirs = asyncio.run(run_sdk(cases))
    ours = run_ours(binary, cases, work)
    missing = [c['name'] for c in cases if c['name'] not in ours]
    if missing:
        sys.exit(f'differential: classify_request printed no line for {missing[:3]}')
    (work / 'request-outcomes.json').write_text(
        json.dumps(
            [{'case': c['name'], 'sdk': theirs[c['name']], 'ours': ours[c['name']]} for c in cases],
            indent=1,
        )
    )

    failed_cases = set()
    allowed_used = set()
    for spec in SPECS:
        mine = [c for c in cases if c['spec'] == spec]
        accepted = [c for c in mine if theirs[c['name']]['outcome'] == 'accepted']
        refused = [c for c in mine if theirs[c['name']]['outcome'] == 'refused']
        stricter = [c for c in accepted if ours[c['name']]['outcome'] == 'refused']
        tolerant = [c for c in refused if ours[c['name']]['outcome'] == 'accepted']
        print(
            f'{spec} requests: stricter {len(stricter)} of {len(accepted)} accepted; '
            f'more tolerant {len(tolerant)} of {len(refused)} refused'
        )
        by_reason = collections.defaultdict(list)
        for c in stricter:
            name = c['name']
            if name in allow:
                allowed_used.add(name)
                by_reason[allow[name]].append(c)
            else:
                failed_cases.add(name)
                print(
                    f'  STRICTER, not allowed: {name}\n    sdk: {short(theirs[name])}\n'
                    f'    ours: {short(ours[name])}'
                )
        for reason, group in by_reason.items():
            print(f'  stricter, allowed: {len(group)}: {reason}')
            for c in group:
                print(f"    {c['name']}  [ours: {short(ours[c['name']])}]")
        by_kind = collections.defaultdict(list)
        for c in tolerant:
            by_kind[c['kind']].append(c)
        for kind, group in sorted(by_kind.items()):
            print(f'  more tolerant, {kind}: {len(group)}')
            for c in group:
                name = c['name']
                wrong = (
                    c['kind'] in MISSING_KINDS
                    and c['path'] in requires[spec].get(c['method'], [])
                )
                if wrong:
                    failed_cases.add(name)
                    print(
                        f'    REQUIRES LIST WRONG: {name}: `{c["path"]}` is in the `requires` of '
                        f'{c["method"]}, but we accepted it\n      sdk: {short(theirs[name])}'
                    )
                else:
                    print(f'    {name}  [sdk: {short(theirs[name])}]')
        # Every requires entry must be measured: some case removes it.
        for method, paths in requires[spec].items():
            for path in paths:
                removed = (
                    c['method'] == method and c['kind'] == 'drop' and c['path'] == path
                    for c in mine
                )
                if not any(removed):
                    failures.append(
                        f'{spec} {method}: `requires` entry `{path}` is not removed by any case; '
                        'add the member to the valid request in cases.py'
                    )
    for name in sorted(set(allow) - allowed_used):
        failures.append(f'allow.toml: `{name}` matches no stricter case; remove the entry')
    for problem in failures:
        print(f'FAILED: {problem}')
    for name in sorted(failed_cases):
        print(f'FAILED: {name}')
    failed = len(failed_cases) + len(failures)
    passed = len(cases) - len(failed_cases)
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
