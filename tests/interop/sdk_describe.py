#!/usr/bin/env python3
"""The generated OpenAPI and OpenRPC documents, checked by the established validators and against the
official A2A Python SDK's own traffic.

    python sdk_describe.py check OUTDIR

OUTDIR/input.json (written by the Rust test describe_v1::...) holds:
  "openapi"       {label: path} of OpenAPI documents: each must pass openapi-spec-validator;
  "openrpc"       {label: path} of OpenRPC documents: each must pass the OpenRPC meta-schema
                  (@open-rpc/meta-schema from npm, with the JSON Schema meta-schema it references,
                  @json-schema-tools/meta-schema; installed by `npm ci` in tests/interop/openrpc);
  "traffic_openapi"  {label: path}: documents every HTTP+JSON exchange must validate against;
  "traffic_openrpc"  {label: path}: documents every JSON-RPC exchange must validate against;
  "card"          the agent card the SDK's server serves (A2A v1 JSON), whose interfaces are on
                  http://127.0.0.1 (HTTP+JSON at the root, with and without tenant `acme`; JSON-RPC at
                  /rpc).

A document broken on purpose must fail each validator, and a document whose Task requires a field no
Task has must fail the traffic (so a validator that accepts anything fails the run). Then the SDK's REST client (a2a.client.transports.rest.RestTransport) calls the SDK's REST
server (a2a.server.routes.create_rest_routes over the recording request handler of
sdk_jsonrpc_v1.py) for every call of sdk_jsonrpc_v1.CALLS, and the SDK's card resolver fetches the
card; every HTTP request and response is validated with openapi-core (request: path, query, headers,
body; response: status, content type, body), and each server-sent event's data against the event
schema. The same calls go through the SDK's JSON-RPC client and server: each request's params and
each result (each event's result for streams) is validated against the method's params and result
schemas of the OpenRPC documents, and each error code must be one the method lists.

Writes OUTDIR/report.json: {"failures": [...], "checked": {what: count}}.
"""

import asyncio
import copy
import json
import logging
import subprocess
import sys
from pathlib import Path

import httpx
import jsonschema
from google.protobuf import json_format
from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse
from openapi_spec_validator import validate as validate_openapi_document
from referencing import Registry
from referencing.jsonschema import DRAFT7
from starlette.applications import Starlette

from a2a.client.card_resolver import A2ACardResolver
from a2a.client.client import ClientConfig
from a2a.client.client_factory import ClientFactory
from a2a.client.transports.rest import RestTransport
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.types import a2a_pb2

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sdk_jsonrpc_v1 import CALLS, STREAMING, Recorder, Recording, client_call, proto, sdk_client  # noqa: E402

HOST = 'http://127.0.0.1'
META_DIR = Path(__file__).resolve().parent / 'openrpc'


def load(path):
    return json.loads(Path(path).read_text())


def openrpc_meta_validator():
    """The OpenRPC meta-schema as npm ships it (a JS module) and the JSON Schema meta-schema it uses."""
    script = "process.stdout.write(JSON.stringify(require('@open-rpc/meta-schema').openrpcDocument))"
    meta = json.loads(subprocess.run(['node', '-e', script], cwd=META_DIR, check=True,
                                     capture_output=True, text=True).stdout)
    json_schema_meta = load(META_DIR / 'node_modules/@json-schema-tools/meta-schema/schema.json')
    resource = DRAFT7.create_resource(json_schema_meta)
    registry = Registry().with_resources([('https://meta.json-schema.tools', resource),
                                          ('https://meta.json-schema.tools/', resource)])
    return jsonschema.Draft7Validator(meta, registry=registry)


def schema_validator(document, schema):
    """A validator for `schema`, whose `#/components/...` references resolve in `document`."""
    root = {'components': document['components'], **schema}
    dialect = jsonschema.Draft7Validator if 'v0.3' in document['info']['title'] else jsonschema.Draft202012Validator
    return dialect(root, format_checker=dialect.FORMAT_CHECKER)


def errors_of(validator, instance):
    return [f"{'/'.join(map(str, e.absolute_path)) or '.'}: {e.message[:300]}" for e in validator.iter_errors(instance)]


class Check:
    def __init__(self):
        self.failures = []
        self.checked = {}

    def count(self, what):
        self.checked[what] = self.checked.get(what, 0) + 1

    def fail(self, text):
        self.failures.append(text)


def check_documents(check, inputs):
    for label, path in inputs['openapi'].items():
        try:
            validate_openapi_document(load(path))
            check.count('openapi documents valid')
        except Exception as error:  # noqa: BLE001 - the validator's exception types vary
            check.fail(f'{label}: openapi-spec-validator: {str(error)[:500]}')
    meta = openrpc_meta_validator()
    for label, path in inputs['openrpc'].items():
        problems = errors_of(meta, load(path))
        for problem in problems[:10]:
            check.fail(f'{label}: OpenRPC meta-schema: {problem}')
        if not problems:
            check.count('openrpc documents valid')
    # The validators must reject a broken document.
    broken = load(next(iter(inputs['openapi'].values())))
    next(iter(broken['paths'].values()))['get' if 'get' in next(iter(broken['paths'].values())) else 'post']['responses'] = {'200': {}}
    try:
        validate_openapi_document(broken)
        check.fail('openapi-spec-validator accepted a response without a description')
    except Exception:  # noqa: BLE001
        check.count('broken openapi document rejected')
    broken = load(next(iter(inputs['openrpc'].values())))
    broken['methods'][0]['params'][0].pop('schema')
    broken['openrpc'] = '9.9'
    if errors_of(meta, broken):
        check.count('broken openrpc document rejected')
    else:
        check.fail('the OpenRPC meta-schema accepted a document without a param schema')


class Exchange(httpx.AsyncBaseTransport):
    """Records every request and its whole response."""

    def __init__(self, inner):
        self.inner = inner
        self.exchanges = []

    async def handle_async_request(self, request):
        body = await request.aread()
        response = await self.inner.handle_async_request(request)
        data = await response.aread()
        self.exchanges.append((request, body, response, data))
        return httpx.Response(response.status_code, headers=response.headers, content=data)


def sse_data(text):
    """The `data` of each event of a text/event-stream body."""
    events, lines = [], []
    for line in text.replace('\r\n', '\n').split('\n'):
        if line == '':
            if lines:
                events.append('\n'.join(lines))
            lines = []
        elif line.startswith('data:'):
            lines.append(line[5:].removeprefix(' '))
    if lines:
        events.append('\n'.join(lines))
    return events


def check_http(check, documents, exchanges):
    for label, document in documents.items():
        # openapi-core reads `application/json` bodies only; the spec's media type is JSON too, and an
        # event stream is text (its events are checked one by one below).
        config = Config(extra_media_type_deserializers={
            'application/a2a+json': json.loads,
            'text/event-stream': lambda data: data.decode() if isinstance(data, bytes) else data,
        })
        openapi = OpenAPI.from_dict(document, config=config)
        events = schema_validator(document, {'$ref': '#/components/schemas/StreamResponse'})
        for request, body, response, data in exchanges:
            what = f'{label}: {request.method} {request.url.raw_path.decode()}'
            mock_request = MockRequest(
                HOST, request.method, request.url.path,
                args=list(request.url.params.multi_items()),
                headers=dict(request.headers),
                data=body or None,
                content_type=request.headers.get('content-type', 'application/json'),
            )
            content_type = response.headers.get('content-type', '').split(';')[0]
            mock_response = MockResponse(data, status_code=response.status_code,
                                         headers=dict(response.headers), content_type=content_type)
            try:
                openapi.validate_request(mock_request)
                check.count('http requests valid')
            except Exception as error:  # noqa: BLE001
                check.fail(f'{what}: request: {error!r} {getattr(error, "__cause__", "")!r}'[:800])
            try:
                openapi.validate_response(mock_request, mock_response)
                check.count(f'http responses valid ({response.status_code})')
            except Exception as error:  # noqa: BLE001
                check.fail(f'{what}: response {response.status_code}: {error!r} {getattr(error, "__cause__", "")!r}'[:800])
            if content_type == 'text/event-stream':
                for event in sse_data(data.decode()):
                    for problem in errors_of(events, json.loads(event)):
                        check.fail(f'{what}: event: {problem}')
                    check.count('http stream events valid')


def method_schemas(document, name):
    method = next((m for m in document['methods'] if m['name'] == name), None)
    if method is None:
        return None
    params = {
        'type': 'object',
        'properties': {p['name']: p['schema'] for p in method['params']},
        'required': [p['name'] for p in method['params'] if p.get('required')],
    }
    codes = set()
    for reference in method['errors']:
        codes.add(document['components']['errors'][reference['$ref'].rsplit('/', 1)[-1]]['code'])
    return (schema_validator(document, params), schema_validator(document, method['result']['schema']), codes)


def check_jsonrpc(check, documents, exchanges):
    for label, document in documents.items():
        for request, body, response, data in exchanges:
            envelope = json.loads(body)
            name = envelope['method']
            what = f'{label}: {name}'
            schemas = method_schemas(document, name)
            if schemas is None:
                check.fail(f'{what}: no such method in the document')
                continue
            params, result, codes = schemas
            for problem in errors_of(params, envelope.get('params', {})):
                check.fail(f'{what}: params: {problem}')
            check.count('jsonrpc params valid')
            content_type = response.headers.get('content-type', '')
            answers = ([json.loads(e) for e in sse_data(data.decode())] if content_type.startswith('text/event-stream')
                       else [json.loads(data)])
            for answer in answers:
                if 'error' in answer:
                    if answer['error']['code'] not in codes:
                        check.fail(f"{what}: error {answer['error']['code']} is not among the method's errors")
                    check.count('jsonrpc errors listed')
                else:
                    for problem in errors_of(result, answer['result']):
                        check.fail(f'{what}: result: {problem}')
                    check.count('jsonrpc results valid')


def with_required_task_field(document):
    """A copy of `document` whose Task schema requires a field that no Task has."""
    broken = copy.deepcopy(document)
    task = broken['components']['schemas']['Task']
    task['required'] = [*task.get('required', []), 'neverSent']
    return broken


def server_app(card):
    handler = Recorder()
    routes = [
        *create_agent_card_routes(card),
        *create_jsonrpc_routes(handler, '/rpc'),
        # At the root: the SDK's server mounts the tenant before its path prefix, its client after.
        *create_rest_routes(handler),
    ]
    return Starlette(routes=routes)


async def traffic(check, inputs):
    card = proto(a2a_pb2.AgentCard, inputs['card'])
    app = server_app(card)
    # HTTP+JSON: the card, then every call through the SDK's REST client.
    rest = Exchange(httpx.ASGITransport(app=app))
    async with httpx.AsyncClient(transport=rest, base_url=HOST) as client:
        # The factory puts the A2A-Version header on the HTTP client, as for any SDK client.
        ClientFactory(ClientConfig(httpx_client=client))
        await A2ACardResolver(client, HOST).get_agent_card()
        for case, _method, transport_method, kind, request in CALLS:
            transport = RestTransport(client, card, HOST)
            await client_call(transport, transport_method, proto(kind, request))
    rest_documents = {label: load(path) for label, path in inputs['traffic_openapi'].items()}
    check_http(check, rest_documents, rest.exchanges)
    # Control: a document whose Task needs a field no one sends must fail on that traffic.
    control = Check()
    check_http(control, {'control': with_required_task_field(next(iter(rest_documents.values())))}, rest.exchanges)
    if any('response' in failure for failure in control.failures):
        check.count('broken openapi document fails the traffic')
    else:
        check.fail('openapi-core accepted responses that lack a required field')
    operations = {request.url.path for request, *_ in rest.exchanges}
    check.checked['http paths called'] = len(operations)
    # JSON-RPC: the same calls through the SDK's JSON-RPC client.
    recording = Exchange(httpx.ASGITransport(app=app))
    for case, _method, transport_method, kind, request in CALLS:
        await client_call(sdk_client(recording), transport_method, proto(kind, request))
    rpc_documents = {label: load(path) for label, path in inputs['traffic_openrpc'].items()}
    check_jsonrpc(check, rpc_documents, recording.exchanges)
    control = Check()
    check_jsonrpc(control, {'control': with_required_task_field(next(iter(rpc_documents.values())))},
                  recording.exchanges)
    if any('result' in failure for failure in control.failures):
        check.count('broken openrpc document fails the traffic')
    else:
        check.fail('the OpenRPC result schemas accepted results that lack a required field')
    check.checked['jsonrpc methods called'] = len({json.loads(b)['method'] for _, b, *_ in recording.exchanges})


def main():
    if len(sys.argv) != 3 or sys.argv[1] != 'check':
        raise SystemExit(__doc__)
    logging.disable(logging.CRITICAL)
    outdir = Path(sys.argv[2])
    inputs = load(outdir / 'input.json')
    check = Check()
    check_documents(check, inputs)
    asyncio.run(traffic(check, inputs))
    (outdir / 'report.json').write_text(json.dumps({'failures': check.failures, 'checked': check.checked}, indent=1))
    print(json.dumps(check.checked))
    print(f'{len(check.failures)} failures')


if __name__ == '__main__':
    main()
