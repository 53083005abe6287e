"""The reference side of the request differential: a2a-sdk 1.3.0's JSON-RPC server, in process.

`SdkServer` serves the interop test's SDK agent (tests/interop/py/agent.py: the SDK's own
DefaultRequestHandler over in-memory stores, routes from create_jsonrpc_routes, v0.3 compatibility
on, every optional capability on) and posts request bodies to it through httpx's ASGI
transport: no socket, no network. `outcome()` reduces the SDK's answer to what the differential compares: refused (-32600 or
-32602: the SDK would not read the request) or accepted (a result, or any other error, which
means the request was read and the method ran).
"""

import json
import pathlib
import sys

import httpx

# The agent is the interop test's SDK agent (tests/interop/py/agent.py), served in process.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / 'interop' / 'py'))
import agent  # noqa: E402

REFUSING_CODES = (-32600, -32602)


class SdkServer:
    """The SDK's JSON-RPC app and an in-process client for it."""

    def __init__(self) -> None:
        app = agent.app(port=80)
        self.client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url='http://sdk', timeout=30
        )

    async def post(self, spec: str, body: object) -> dict:
        """Sends one request body; returns the JSON-RPC response (the first event of a stream).

        v1 requests carry `A2A-Version: 1.0`; v0.3 ones carry no version header, which the SDK
        reads as 0.3 (spec §3.6).
        """
        headers = {'content-type': 'application/json'}
        if spec == 'v1':
            headers['A2A-Version'] = '1.0'
        data = body if isinstance(body, str) else json.dumps(body)
        response = await self.client.post('/', content=data, headers=headers)
        text = response.text
        if response.headers.get('content-type', '').startswith('text/event-stream'):
            for line in text.splitlines():
                if line.startswith('data:'):
                    return json.loads(line[5:])
            return {'result': None, 'note': 'empty stream'}
        return json.loads(text)

    async def aclose(self) -> None:
        await self.client.aclose()


def outcome(response: dict) -> dict:
    """{outcome, code, reason} of one SDK response, in the shape classify_request prints."""
    error = response.get('error')
    if not isinstance(error, dict):
        return {'outcome': 'accepted', 'code': None, 'reason': 'result'}
    code = error.get('code')
    reason = str(error.get('message'))
    data = error.get('data')
    if data is not None:
        reason += ' ' + json.dumps(data, sort_keys=True)
    return {
        'outcome': 'refused' if code in REFUSING_CODES else 'accepted',
        'code': code,
        'reason': reason,
    }
