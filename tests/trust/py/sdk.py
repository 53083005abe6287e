"""The a2a-sdk 1.3.0 side of tests/trust/run.sh: the SDK's own signer, verifier and push sender.

    sdk.py sign OUT           the SDK signs cards (ES256 and EdDSA) into OUT/sdk/
    sdk.py verify IN          the SDK's verifier checks the cards Rust signed in IN/rust/
    sdk.py push URL TOKEN     the SDK's push sender posts task updates to a Rust webhook

Only the SDK's public signing API (`create_agent_card_signer`, `create_signature_verifier`) and
push sender (`BasePushNotificationSender`) make and check signatures and notifications; PyJWT
and `cryptography` only make and export keys. Prints one line per check and a summary; exits 1
when a check fails.
"""

import asyncio
import base64
import json
import pathlib
import sys

from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from google.protobuf.json_format import MessageToDict, ParseDict
from jwt import api_jws
from jwt.algorithms import ECAlgorithm, OKPAlgorithm
from jwt.api_jwk import PyJWK

from a2a.types import AgentCard
from a2a.utils import signing
from a2a.utils._jcs import canonicalize


def cards():
    """The cards both sides sign: non-ASCII text, numbers, empty strings, nested params."""
    base = {
        'version': '1.0.0',
        'supportedInterfaces': [
            {'url': 'http://127.0.0.1:9/a2a', 'protocolBinding': 'JSONRPC', 'protocolVersion': '1.0'}
        ],
        'defaultInputModes': ['text/plain'],
        'defaultOutputModes': ['text/plain', 'application/json'],
    }
    return {
        'non-ascii': {
            **base,
            'name': 'Grüße ✓ 日本語 😀 \u05d3\u05bc',
            'description': 'Says "hello"\tand\nbye: é, €, \U0001f600, \u2028',
            'capabilities': {'streaming': True},
            'skills': [{'id': 'hi', 'name': 'Grüßen', 'description': 'ß', 'tags': ['ünï', '😀']}],
        },
        'numbers': {
            **base,
            'name': 'numbers',
            'description': 'numbers in extension params',
            'capabilities': {'extensions': [{
                'uri': 'https://example.com/ext/numbers/v1',
                'params': {
                    'int': 7, 'negative': -42, 'float': 1.5, 'tenth': 0.1, 'big': 1e21,
                    'small': 1e-7, 'zero': 0, 'negZero': -0.0, 'large': 123456789012345,
                    'third': 1 / 3, 'list': [1, 2.25, -3e-9, 1e300],
                },
            }]},
            'skills': [{'id': 's', 'name': 'n', 'description': 'd', 'tags': ['t']}],
        },
        'empty-strings': {
            **base,
            'name': 'empty',
            'description': '',
            'iconUrl': '',
            'capabilities': {'streaming': False, 'pushNotifications': False, 'extensions': [{
                'uri': 'https://example.com/ext/empty/v1', 'description': '', 'required': False,
                'params': {'blank': '', 'list': ['', 'x', []], 'obj': {'inner': ''}, 'keep': 0},
            }]},
            'skills': [{'id': 'e', 'name': 'E', 'description': '', 'tags': [], 'examples': ['']}],
        },
        'nested-params': {
            **base,
            'name': 'nested',
            'description': 'deeply nested extension params',
            'provider': {'url': 'https://example.com', 'organization': 'Example Ö'},
            'documentationUrl': 'https://example.com/docs',
            'capabilities': {'extensions': [
                {'uri': 'https://example.com/ext/a/v1', 'required': True,
                 'params': {'a': {'b': {'c': {'d': {'e': [{'f': [1, {'g': 'h'}]}, True, None]}}}}}},
                {'uri': 'https://example.com/ext/b/v1', 'params': {'z': 1, 'a': 2, 'é': 3, '€': 4, '\u0080': 5}},
            ], 'extendedAgentCard': True},
            'securitySchemes': {
                'key': {'apiKeySecurityScheme': {'location': 'header', 'name': 'X-Key'}},
                'oauth': {'oauth2SecurityScheme': {'flows': {'clientCredentials': {
                    'tokenUrl': 'https://example.com/token', 'scopes': {'read': 'Read ✓'}}}}},
            },
            'securityRequirements': [{'schemes': {'key': {'list': []}, 'oauth': {'list': ['read']}}}],
            'skills': [{'id': 'n', 'name': 'N', 'description': 'd', 'tags': ['x'],
                        'inputModes': ['text/plain'], 'examples': ['one', 'two']}],
        },
    }


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b'=').decode()


def flip_signature(card: dict, index: int = 0) -> dict:
    card = json.loads(json.dumps(card))
    sig = card['signatures'][index]['signature']
    raw = bytearray(base64.urlsafe_b64decode(sig + '=' * (-len(sig) % 4)))
    raw[len(raw) // 2] ^= 0x01
    card['signatures'][index]['signature'] = b64(bytes(raw))
    return card


def tampered(card: dict) -> dict:
    """The three tamperings: a member changed, a member added, a signature byte flipped."""
    changed = json.loads(json.dumps(card))
    changed['name'] = changed['name'] + '!'
    added = json.loads(json.dumps(card))
    added['documentationUrl'] = 'https://evil.example/docs'
    return {'changed': changed, 'added': added, 'flipped': flip_signature(card)}


def write(path: pathlib.Path, value) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, ensure_ascii=False, indent=2), encoding='utf-8')


def sign(out: pathlib.Path) -> int:
    out = out / 'sdk'
    keys = {
        'ES256': ec.generate_private_key(ec.SECP256R1()),
        'EdDSA': ed25519.Ed25519PrivateKey.generate(),
    }
    jwks = []
    for alg, private in keys.items():
        algorithm = ECAlgorithm(ECAlgorithm.SHA256) if alg == 'ES256' else OKPAlgorithm()
        jwk = json.loads(algorithm.to_jwk(private.public_key()))
        jwk.update({'kid': f'sdk-{alg}', 'alg': alg, 'use': 'sig'})
        jwks.append(jwk)
    write(out / 'jwks.json', {'keys': jwks})
    # The same cards, unsigned, for Rust to sign (one source of the test cards).
    for name, card_dict in cards().items():
        write(out.parent / 'inputs' / f'{name}.json', card_dict)
    count = 0
    for name, card_dict in cards().items():
        for alg, private in keys.items():
            card = ParseDict(card_dict, AgentCard())
            signer = signing.create_agent_card_signer(
                signing_key=private,
                protected_header={'alg': alg, 'typ': 'JOSE', 'kid': f'sdk-{alg}'},
            )
            signed = signer(card)
            # The card as the SDK serves it (its card route writes MessageToDict).
            served = MessageToDict(signed)
            write(out / 'cards' / f'{name}.{alg}.json', served)
            # The payload the SDK signed, for Rust to compare with the forms it computes.
            payload = signing._canonicalize_agent_card(signed)
            (out / 'payloads').mkdir(parents=True, exist_ok=True)
            (out / 'payloads' / f'{name}.{alg}.json').write_text(payload, encoding='utf-8')
            for kind, bad in tampered(served).items():
                write(out / 'tampered' / f'{name}.{alg}.{kind}.json', bad)
            count += 1
    # A newer peer's card: a member a2a-sdk 1.3.0 does not know, signed over the whole card
    # (what a newer SDK that knows the member signs: its clean-empty form, with the SDK's own
    # JCS), with the SDK's JWS encoder.
    for alg, private in keys.items():
        newer = dict(cards()['non-ascii'])
        newer['name'] = 'newer peer'
        newer['futureCapability'] = {'mode': 'quantum', 'levels': [1, 2, 3]}
        payload = canonicalize(signing._clean_empty(newer)).encode()
        header = {'alg': alg, 'typ': 'JOSE', 'kid': f'sdk-{alg}'}
        jws = api_jws.encode(payload=payload, key=private, algorithm=alg, headers=header)
        protected, _, signature = jws.split('.')
        newer['signatures'] = [{'protected': protected, 'signature': signature}]
        write(out / 'cards' / f'unknown-member.{alg}.json', newer)
        count += 1
    print(f'sdk sign: {count} cards signed by a2a-sdk 1.3.0 (ES256 and EdDSA), {3 * (count - len(keys))} tampered')
    return 0


def verify(root: pathlib.Path) -> int:
    rust = root / 'rust'
    jwks = json.loads((rust / 'jwks.json').read_text(encoding='utf-8'))
    by_kid = {k['kid']: PyJWK(k) for k in jwks['keys']}

    def key_provider(kid, jku):
        return by_kid[kid]

    verifier = signing.create_signature_verifier(key_provider, ['ES256', 'EdDSA'])
    expect = json.loads((rust / 'expect.json').read_text(encoding='utf-8'))
    results = {'verified': 0, 'tampered refused': 0, 'spec-only verified': 0, 'spec-only refused': 0,
               'newer-member cards refused': 0}
    failures = []
    paths = [p for folder in ('cards', 'spec-only', 'tampered', 'newer') for p in sorted((rust / folder).glob('*.json'))]
    for path in paths:
        rel = f'{path.parent.name}/{path.name}'
        raw = json.loads(path.read_text(encoding='utf-8'))
        # As the SDK's card resolver reads a card: into the proto, unknown members ignored.
        card = ParseDict(raw, AgentCard(), ignore_unknown_fields=True)
        try:
            verifier(card)
            ok = True
        except signing.SignatureVerificationError as e:
            ok = False
            why = type(e).__name__
        except Exception as e:  # a crash in the verifier is a refusal too, and said
            ok = False
            why = f'{type(e).__name__}: {e}'
        want = expect[rel]
        folder = path.parent.name
        if folder == 'spec-only':
            results['spec-only verified' if ok else 'spec-only refused'] += 1
        elif folder == 'cards' and ok:
            results['verified'] += 1
        elif folder == 'tampered' and not ok:
            results['tampered refused'] += 1
        elif folder == 'newer' and not ok:
            results['newer-member cards refused'] += 1
        line = f'  {rel}: {"verified" if ok else "refused (" + why + ")"}'
        if ok != want:
            failures.append(rel)
            line += f'  FAILED: expected {"verified" if want else "refused"}'
        print(line)
    print('sdk verify: ' + ', '.join(f'{v} {k}' for k, v in results.items()) + f', {len(failures)} failed')
    return 1 if failures else 0


async def push(url: str, token: str) -> int:
    import httpx

    from a2a.server.context import ServerCallContext
    from a2a.server.tasks import BasePushNotificationSender, InMemoryPushNotificationConfigStore
    from a2a.types.a2a_pb2 import (
        Artifact, AuthenticationInfo, Part, Task, TaskArtifactUpdateEvent, TaskPushNotificationConfig,
        TaskState, TaskStatus, TaskStatusUpdateEvent,
    )

    store = InMemoryPushNotificationConfigStore()
    ctx = ServerCallContext()
    good = TaskPushNotificationConfig(
        id='good', task_id='t-good', url=url, token=token,
        authentication=AuthenticationInfo(scheme='Bearer', credentials='rust-webhook-secret'),
    )
    wrong_token = TaskPushNotificationConfig(
        id='wrong-token', task_id='t-wrong-token', url=url, token=token + 'x',
        authentication=AuthenticationInfo(scheme='Bearer', credentials='rust-webhook-secret'),
    )
    wrong_auth = TaskPushNotificationConfig(
        id='wrong-auth', task_id='t-wrong-auth', url=url, token=token,
        authentication=AuthenticationInfo(scheme='Bearer', credentials='guess'),
    )
    for config in (good, wrong_token, wrong_auth):
        await store.set_info(config.task_id, config, ctx)
    async with httpx.AsyncClient() as client:
        sender = BasePushNotificationSender(client, store)
        events = [
            Task(id='t-good', context_id='c', status=TaskStatus(state=TaskState.TASK_STATE_WORKING)),
            TaskStatusUpdateEvent(task_id='t-good', context_id='c', status=TaskStatus(state=TaskState.TASK_STATE_WORKING)),
            TaskArtifactUpdateEvent(task_id='t-good', context_id='c', artifact=Artifact(
                artifact_id='a', parts=[Part(text='Grüße ✓ 😀')])),
            TaskStatusUpdateEvent(task_id='t-good', context_id='c', status=TaskStatus(state=TaskState.TASK_STATE_COMPLETED)),
        ]
        for event in events:
            await sender.send_notification('t-good', event)
        await sender.send_notification('t-wrong-token', TaskStatusUpdateEvent(
            task_id='t-wrong-token', context_id='c', status=TaskStatus(state=TaskState.TASK_STATE_WORKING)))
        await sender.send_notification('t-wrong-auth', TaskStatusUpdateEvent(
            task_id='t-wrong-auth', context_id='c', status=TaskStatus(state=TaskState.TASK_STATE_WORKING)))
    print(f'sdk push: {len(events)} notifications with the registered token, 1 with a wrong token, 1 with wrong credentials')
    return 0


def main() -> int:
    if len(sys.argv) >= 3 and sys.argv[1] == 'sign':
        return sign(pathlib.Path(sys.argv[2]))
    if len(sys.argv) >= 3 and sys.argv[1] == 'verify':
        return verify(pathlib.Path(sys.argv[2]))
    if len(sys.argv) >= 4 and sys.argv[1] == 'push':
        return asyncio.run(push(sys.argv[2], sys.argv[3]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main())
