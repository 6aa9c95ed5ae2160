#!/usr/bin/env python3
"""Every A2A v1 JSON-RPC method through the official Python SDK's own JSON-RPC client and server.

    python sdk_jsonrpc_v1.py generate OUTDIR
    python sdk_jsonrpc_v1.py check OUTDIR

Both commands run in this process, without sockets: the SDK's JSON-RPC server (a2a.server.routes.
create_jsonrpc_routes in a Starlette app) is called through httpx's ASGI transport, and the SDK's
JSON-RPC client (a2a.client.transports.jsonrpc.JsonRpcTransport) talks to it, or to a canned body,
through an httpx transport that records the exact request it sends. The HTTP client gets its
A2A-Version header from the SDK's ClientFactory, as an SDK application's client does.

The server's request handler is a recorder: it keeps the request it receives (as canonical ProtoJSON,
json_format.MessageToDict) and answers with a realistic result for each method (a task with history,
artifacts and timestamps; a list page; push configs with authentication; an extended card; streams
of task, status and artifact events).

`generate` writes OUTDIR/manifest.json: the headers "a2a_version" the SDK's client sends, and a list
"cases", one per method call (plus error cases), each with
    "case", "method", "streaming";
    "client_request"   the JSON-RPC request body the SDK's client sent;
    "handler_request"  what the SDK's server handed its request handler (canonical ProtoJSON);
    "response"         the body the SDK's server answered with: a JSON-RPC response object, or for a
                       stream {"content_type": ..., "sse": <the raw text/event-stream body>};
    "client_result"    what the SDK's client made of it: canonical ProtoJSON of the result, a list of
                       StreamResponses, or {"error": {"code", "message", "data"}} for an A2A error.

`check` reads OUTDIR/ours.json, a list of
    {"case", "method", "streaming", "a2a_version": <header value or null>, "request": <our request>,
     "response": <our response object> | "sse": <our event-stream body>}
and writes OUTDIR/sdk_read.json: per case, "handler_request" (what the SDK's server handed its handler
from our request; or "server_error", the error response it answered with instead) and "client_result"
(what the SDK's client made of our response, as above). It also probes the server's A2A-Version check:
"versions" maps each header value in OUTDIR/ours.json's "versions" list (null for no header) to whether
a GetTask with it was served.
"""

import asyncio
import json
import logging
import sys
from pathlib import Path

import httpx
from google.protobuf import json_format
from starlette.applications import Starlette

from a2a.client.client import ClientConfig
from a2a.client.client_factory import ClientFactory
from a2a.client.transports.jsonrpc import JsonRpcTransport
from a2a.server.request_handlers.request_handler import RequestHandler
from a2a.server.routes import create_jsonrpc_routes
from a2a.types import a2a_pb2
from a2a.utils.constants import VERSION_HEADER
from a2a.utils.errors import JSON_RPC_ERROR_CODE_MAP, A2AError, TaskNotFoundError

RPC_URL = 'http://127.0.0.1/rpc'
MISSING_TASK = 'task-that-never-was'

TASK = {
    'id': 'task-lisbon-7',
    'contextId': 'ctx-lisbon',
    'status': {
        'state': 'TASK_STATE_WORKING',
        'timestamp': '2026-03-14T09:26:53.589Z',
        'message': {
            'messageId': 'm-status-1',
            'role': 'ROLE_AGENT',
            'parts': [{'text': 'Checking trains to Sintra — first one 08:10'}],
        },
    },
    'history': [
        {
            'messageId': 'm-user-1',
            'contextId': 'ctx-lisbon',
            'taskId': 'task-lisbon-7',
            'role': 'ROLE_USER',
            'parts': [
                {'text': 'Plan two days in Lisbon'},
                {'data': {'budgetEur': 400, 'vegetarian': True, 'dates': ['2026-04-02', '2026-04-03']}},
            ],
            'metadata': {'channel': 'web'},
        }
    ],
    'artifacts': [
        {
            'artifactId': 'itinerary',
            'name': 'itinerary',
            'parts': [
                {'text': 'Day 1: Alfama', 'mediaType': 'text/plain'},
                {'url': 'https://example.com/map.png', 'mediaType': 'image/png', 'filename': 'map.png'},
                {'raw': 'iVBORw0KGgo=', 'mediaType': 'image/png'},
            ],
        }
    ],
    'metadata': {'priority': 'high'},
}

USER_MESSAGE = {
    'messageId': 'm-user-2',
    'contextId': 'ctx-lisbon',
    'role': 'ROLE_USER',
    'parts': [{'text': 'Book a table for two at 20:00'}],
    'extensions': ['https://example.com/ext/booking/v1'],
    'referenceTaskIds': ['task-lisbon-7'],
}

PUSH_CONFIG = {
    'tenant': 'acme',
    'taskId': 'task-lisbon-7',
    'id': 'push-1',
    'url': 'https://hooks.example.com/a2a',
    'token': 'secret-token',
    'authentication': {'scheme': 'Bearer', 'credentials': 'abc.def'},
}

CARD = {
    'name': 'Wayfarer',
    'description': 'Plans trips.',
    'version': '1.0.0',
    'supportedInterfaces': [
        {'url': RPC_URL, 'protocolBinding': 'JSONRPC', 'protocolVersion': '1.0'},
    ],
    'capabilities': {'streaming': True, 'pushNotifications': True, 'extendedAgentCard': True},
    'defaultInputModes': ['text/plain'],
    'defaultOutputModes': ['text/plain', 'application/json'],
    'skills': [
        {
            'id': 'plan-trip',
            'name': 'Plan a trip',
            'description': 'Day-by-day itineraries.',
            'tags': ['travel'],
            'examples': ['Two days in Lisbon'],
        }
    ],
    'securitySchemes': {'bearer': {'httpAuthSecurityScheme': {'scheme': 'Bearer', 'bearerFormat': 'JWT'}}},
    'securityRequirements': [{'schemes': {'bearer': {'list': []}}}],
}


def proto(kind, value):
    return json_format.ParseDict(value, kind())


def stream_events():
    """A task, a status update, an artifact in two chunks and the final status, as a handler yields them."""
    ids = {'taskId': 'task-lisbon-7', 'contextId': 'ctx-lisbon'}
    return [
        proto(a2a_pb2.Task, {**TASK, 'artifacts': []}),
        proto(a2a_pb2.TaskStatusUpdateEvent, {**ids, 'status': TASK['status']}),
        proto(a2a_pb2.TaskArtifactUpdateEvent, {**ids, 'artifact': TASK['artifacts'][0], 'lastChunk': False}),
        proto(
            a2a_pb2.TaskArtifactUpdateEvent,
            {**ids, 'artifact': {'artifactId': 'itinerary', 'parts': [{'text': '\nDay 2: Sintra\r\ndata: x'}]},
             'append': True, 'lastChunk': True},
        ),
        proto(
            a2a_pb2.TaskStatusUpdateEvent,
            {**ids, 'status': {'state': 'TASK_STATE_COMPLETED', 'timestamp': '2026-03-14T09:30:00Z'},
             'metadata': {'durationMs': 3120}},
        ),
    ]


class Recorder(RequestHandler):
    """Keeps each request it is handed and answers with realistic results."""

    def __init__(self):
        self.received = []

    def keep(self, params):
        self.received.append(json_format.MessageToDict(params))

    async def on_get_task(self, params, context):
        self.keep(params)
        if params.id == MISSING_TASK:
            raise TaskNotFoundError(f'no task {params.id}', data={'taskId': params.id})
        return proto(a2a_pb2.Task, TASK)

    async def on_list_tasks(self, params, context):
        self.keep(params)
        return proto(
            a2a_pb2.ListTasksResponse,
            {'tasks': [TASK, {**TASK, 'id': 'task-porto-2', 'history': []}], 'nextPageToken': 'page-2',
             'pageSize': 2, 'totalSize': 9},
        )

    async def on_cancel_task(self, params, context):
        self.keep(params)
        return proto(a2a_pb2.Task, {**TASK, 'status': {'state': 'TASK_STATE_CANCELED'}})

    async def on_message_send(self, params, context):
        self.keep(params)
        if params.message.parts and params.message.parts[0].text.startswith('Hello'):
            return proto(a2a_pb2.Message, {**USER_MESSAGE, 'messageId': 'm-agent-1', 'role': 'ROLE_AGENT',
                                          'parts': [{'text': 'Hello! Where to?'}]})
        return proto(a2a_pb2.Task, TASK)

    async def on_message_send_stream(self, params, context):
        self.keep(params)
        for event in stream_events():
            yield event

    async def on_subscribe_to_task(self, params, context):
        self.keep(params)
        for event in stream_events()[1:]:
            yield event

    async def on_create_task_push_notification_config(self, params, context):
        self.keep(params)
        return proto(a2a_pb2.TaskPushNotificationConfig, PUSH_CONFIG)

    async def on_get_task_push_notification_config(self, params, context):
        self.keep(params)
        return proto(a2a_pb2.TaskPushNotificationConfig, PUSH_CONFIG)

    async def on_list_task_push_notification_configs(self, params, context):
        self.keep(params)
        return proto(
            a2a_pb2.ListTaskPushNotificationConfigsResponse,
            {'configs': [PUSH_CONFIG, {**PUSH_CONFIG, 'id': 'push-2', 'token': ''}], 'nextPageToken': 'n-2'},
        )

    async def on_delete_task_push_notification_config(self, params, context):
        self.keep(params)

    async def on_get_extended_agent_card(self, params, context):
        self.keep(params)
        return proto(a2a_pb2.AgentCard, {**CARD, 'skills': CARD['skills'] * 2})


# (case, method, transport method name, request type, request as ProtoJSON)
CALLS = [
    ('send_message_task', 'SendMessage', 'send_message', a2a_pb2.SendMessageRequest,
     {'tenant': 'acme', 'message': USER_MESSAGE,
      'configuration': {'acceptedOutputModes': ['text/plain'], 'historyLength': 3, 'returnImmediately': True,
                        'taskPushNotificationConfig': PUSH_CONFIG},
      'metadata': {'trace': 'abc'}}),
    ('send_message_message', 'SendMessage', 'send_message', a2a_pb2.SendMessageRequest,
     {'message': {**USER_MESSAGE, 'parts': [{'text': 'Hello'}]}}),
    ('send_streaming_message', 'SendStreamingMessage', 'send_message_streaming', a2a_pb2.SendMessageRequest,
     {'message': USER_MESSAGE, 'configuration': {'acceptedOutputModes': ['text/plain']}}),
    ('get_task', 'GetTask', 'get_task', a2a_pb2.GetTaskRequest,
     {'tenant': 'acme', 'id': 'task-lisbon-7', 'historyLength': 2}),
    ('get_task_not_found', 'GetTask', 'get_task', a2a_pb2.GetTaskRequest, {'id': MISSING_TASK}),
    ('list_tasks', 'ListTasks', 'list_tasks', a2a_pb2.ListTasksRequest,
     {'contextId': 'ctx-lisbon', 'status': 'TASK_STATE_WORKING', 'pageSize': 2, 'pageToken': 'page-1',
      'historyLength': 1, 'statusTimestampAfter': '2026-03-01T00:00:00Z', 'includeArtifacts': True}),
    ('cancel_task', 'CancelTask', 'cancel_task', a2a_pb2.CancelTaskRequest,
     {'id': 'task-lisbon-7', 'metadata': {'reason': 'plans changed'}}),
    ('subscribe_to_task', 'SubscribeToTask', 'subscribe', a2a_pb2.SubscribeToTaskRequest,
     {'tenant': 'acme', 'id': 'task-lisbon-7'}),
    ('create_push_config', 'CreateTaskPushNotificationConfig', 'create_task_push_notification_config',
     a2a_pb2.TaskPushNotificationConfig, PUSH_CONFIG),
    ('get_push_config', 'GetTaskPushNotificationConfig', 'get_task_push_notification_config',
     a2a_pb2.GetTaskPushNotificationConfigRequest, {'taskId': 'task-lisbon-7', 'id': 'push-1'}),
    ('list_push_configs', 'ListTaskPushNotificationConfigs', 'list_task_push_notification_configs',
     a2a_pb2.ListTaskPushNotificationConfigsRequest, {'taskId': 'task-lisbon-7', 'pageSize': 10, 'pageToken': 'n-1'}),
    ('delete_push_config', 'DeleteTaskPushNotificationConfig', 'delete_task_push_notification_config',
     a2a_pb2.DeleteTaskPushNotificationConfigRequest, {'tenant': 'acme', 'taskId': 'task-lisbon-7', 'id': 'push-1'}),
    ('get_extended_agent_card', 'GetExtendedAgentCard', 'get_extended_agent_card',
     a2a_pb2.GetExtendedAgentCardRequest, {'tenant': 'acme'}),
]
STREAMING = {'SendStreamingMessage', 'SubscribeToTask'}


class Recording(httpx.AsyncBaseTransport):
    """Records each request, then hands it to `inner` (the SDK's server, or a canned answer)."""

    def __init__(self, inner):
        self.inner = inner
        self.requests = []

    async def handle_async_request(self, request):
        body = await request.aread()
        self.requests.append({'headers': dict(request.headers), 'body': json.loads(body)})
        return await self.inner.handle_async_request(request)


def sdk_client(transport) -> JsonRpcTransport:
    httpx_client = httpx.AsyncClient(transport=transport)
    # The factory puts the A2A-Version header on the HTTP client, as for any SDK client.
    ClientFactory(ClientConfig(httpx_client=httpx_client))
    return JsonRpcTransport(httpx_client, proto(a2a_pb2.AgentCard, CARD), RPC_URL)


async def client_call(client, transport_method, request):
    """What the SDK's client makes of the answer: canonical ProtoJSON, a list for streams, or the error."""
    try:
        call = getattr(client, transport_method)(request)
        if transport_method in ('send_message_streaming', 'subscribe'):
            return [json_format.MessageToDict(event) async for event in call]
        result = await call
        return None if result is None else json_format.MessageToDict(result)
    except A2AError as error:
        return {'error': {'code': JSON_RPC_ERROR_CODE_MAP.get(type(error)), 'message': error.message,
                          'data': error.data}}


def server_app(handler):
    return Starlette(routes=create_jsonrpc_routes(handler, '/rpc'))


async def generate(outdir: Path):
    handler = Recorder()
    recording = Recording(httpx.ASGITransport(app=server_app(handler)))
    cases = []
    for case, method, transport_method, kind, request in CALLS:
        client = sdk_client(recording)
        # The server's raw answer, fetched again with the very request the client sent.
        result = await client_call(client, transport_method, proto(kind, request))
        sent = recording.requests[-1]
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=server_app(Recorder()))) as raw:
            answer = await raw.post(RPC_URL, json=sent['body'], headers={VERSION_HEADER: sent['headers']['a2a-version']})
        response = (
            {'content_type': answer.headers['content-type'], 'sse': answer.text}
            if method in STREAMING
            else answer.json()
        )
        cases.append({'case': case, 'method': method, 'streaming': method in STREAMING,
                      'client_request': sent['body'], 'handler_request': handler.received[-1],
                      'response': response, 'client_result': result})
    versions = sorted({r['headers'].get('a2a-version') for r in recording.requests})
    manifest = {'a2a_version': versions, 'cases': cases}
    (outdir / 'manifest.json').write_text(json.dumps(manifest, indent=1, ensure_ascii=False))


class Canned(httpx.AsyncBaseTransport):
    """Answers every request with one fixed body."""

    def __init__(self, body: bytes, content_type: str):
        self.body, self.content_type = body, content_type

    async def handle_async_request(self, request):
        return httpx.Response(200, content=self.body, headers={'content-type': self.content_type})


async def check(outdir: Path):
    ours = json.loads((outdir / 'ours.json').read_text())
    calls = {case: (transport_method, kind) for case, _, transport_method, kind, _ in CALLS}
    read = {}
    for entry in ours['cases']:
        transport_method, kind = calls[entry['case']]
        handler = Recorder()
        headers = {} if entry['a2a_version'] is None else {VERSION_HEADER: entry['a2a_version']}
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=server_app(handler))) as raw:
            answer = await raw.post(RPC_URL, json=entry['request'], headers=headers)
        outcome = {}
        if handler.received:
            outcome['handler_request'] = handler.received[-1]
        else:
            outcome['server_error'] = answer.json()
        if entry['streaming']:
            canned = Canned(entry['sse'].encode(), 'text/event-stream')
        else:
            canned = Canned(json.dumps(entry['response']).encode(), 'application/json')
        request = proto(kind, dict(entry['request']['params']))
        outcome['client_result'] = await client_call(sdk_client(canned), transport_method, request)
        read[entry['case']] = outcome
    versions = {}
    for value in ours['versions']:
        handler = Recorder()
        headers = {} if value is None else {VERSION_HEADER: value}
        body = {'jsonrpc': '2.0', 'id': 1, 'method': 'GetTask', 'params': {'id': 'task-lisbon-7'}}
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=server_app(handler))) as raw:
            answer = await raw.post(RPC_URL, json=body, headers=headers)
        versions[json.dumps(value)] = {'served': bool(handler.received), 'response': answer.json()}
    (outdir / 'sdk_read.json').write_text(
        json.dumps({'cases': read, 'versions': versions}, indent=1, ensure_ascii=False)
    )


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ('generate', 'check'):
        raise SystemExit(__doc__)
    logging.disable(logging.CRITICAL)
    outdir = Path(sys.argv[2])
    outdir.mkdir(parents=True, exist_ok=True)
    asyncio.run((generate if sys.argv[1] == 'generate' else check)(outdir))


if __name__ == '__main__':
    main()
