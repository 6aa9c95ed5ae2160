#!/usr/bin/env python3
"""Server-sent event streams as the official A2A Python SDK's server writes them, for both HTTP bindings.

    python sdk_sse.py generate OUTDIR
    python sdk_sse.py check OUTDIR

Runs the SDK's own server (a2a.server.routes over DefaultRequestHandlerV2 and an in-memory task store,
inside a Starlette app, with sse-starlette writing the events) in this process, calling the ASGI app
directly: no socket is opened. A small agent executor answers each streaming request with a task, a
status update whose message holds a line break, non-ASCII text and a colon, an artifact in two
chunks, and a final status. Each case records the exact bytes of the HTTP response body:

  OUTDIR/<case>.sse   the raw response body;
  OUTDIR/manifest.json, a list with one object per case:
    "case"          short name;
    "binding"       "HTTP+JSON" or "JSONRPC";
    "status"        the HTTP status;
    "content_type"  the response's Content-Type;
    "body"          the .sse file's name;
    "events"        what the SDK's client reads from those bytes (a2a.client.transports.http_helpers.
                    parse_sse_stream): a list of {"event": type, "data": text};
    "items"         for each event, how the SDK's client transport interprets its data: for HTTP+JSON the
                    StreamResponse as canonical ProtoJSON (json_format.MessageToDict), for JSON-RPC the
                    response object with its result in that form; for an `error` event the JSON payload
                    as is.
The failing cases run a request handler whose stream raises after its first two events: an A2A error
(TaskNotFoundError) and an unexpected exception (RuntimeError), showing how each binding reports an
error once the stream has begun; and one whose stream raises before its first event, showing that the
SDK then answers with plain JSON (its "body" is that JSON, its "events" and "items" are empty).

`check` has the SDK's client read streams we wrote: every OUTDIR/ours/<case>.sse, read as above, into
OUTDIR/ours/read.json, an object {case: {"events": [...], "items": [...]}}.
"""

import asyncio
import json
import logging
import sys
from pathlib import Path

import httpx
from google.protobuf import json_format
from starlette.applications import Starlette

from a2a.client.transports.http_helpers import parse_sse_stream
from a2a.helpers.proto_helpers import new_task, new_text_artifact_update_event, new_text_status_update_event
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events.event_queue_v2 import EventQueue
from a2a.server.request_handlers import DefaultRequestHandlerV2
from a2a.server.routes import create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import a2a_pb2
from a2a.utils.errors import TaskNotFoundError
from a2a.utils.proto_utils import parse_lenient


class TripPlanner(AgentExecutor):
    """Streams a short itinerary: task, working status, two artifact chunks, completed status."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task_id, context_id = context.task_id, context.context_id
        await event_queue.enqueue_event(
            new_task(task_id, context_id, a2a_pb2.TaskState.TASK_STATE_SUBMITTED, history=[context.message])
        )
        await event_queue.enqueue_event(
            new_text_status_update_event(
                task_id,
                context_id,
                a2a_pb2.TaskState.TASK_STATE_WORKING,
                'Checking trains to Sintra:\nfirst departure 08:10 from Rossio — “ok”',
            )
        )
        await event_queue.enqueue_event(
            new_text_artifact_update_event(
                task_id, context_id, 'itinerary', 'Day 1: Alfama, Castelo de São Jorge',
                artifact_id='itinerary',
            )
        )
        await event_queue.enqueue_event(
            new_text_artifact_update_event(
                task_id, context_id, 'itinerary', '\nDay 2: Sintra\r\ndata: not a field',
                append=True, last_chunk=True, artifact_id='itinerary',
            )
        )
        await event_queue.enqueue_event(
            new_text_status_update_event(
                task_id, context_id, a2a_pb2.TaskState.TASK_STATE_COMPLETED, 'Done.'
            )
        )

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError


class FailingHandler(DefaultRequestHandlerV2):
    """The SDK's handler, whose stream fails after its first `after` events."""

    def __init__(self, error: Exception, after: int = 2, **kwargs):
        super().__init__(**kwargs)
        self._error = error
        self._after = after

    async def on_message_send_stream(self, params, context):
        if self._after == 0:
            raise self._error
        count = 0
        async for event in super().on_message_send_stream(params, context):
            yield event
            count += 1
            if count == self._after:
                raise self._error


def agent_card() -> a2a_pb2.AgentCard:
    return a2a_pb2.AgentCard(
        name='Wayfarer',
        description='Plans trips.',
        version='1.0.0',
        supported_interfaces=[
            a2a_pb2.AgentInterface(url='http://127.0.0.1/rpc', protocol_binding='JSONRPC', protocol_version='1.0'),
            a2a_pb2.AgentInterface(url='http://127.0.0.1', protocol_binding='HTTP+JSON', protocol_version='1.0'),
        ],
        capabilities=a2a_pb2.AgentCapabilities(streaming=True),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
    )


def app_for(handler) -> Starlette:
    return Starlette(routes=[*create_jsonrpc_routes(handler, '/rpc'), *create_rest_routes(handler)])


async def call(app, path: str, body: bytes) -> tuple[int, str, bytes]:
    """Calls the ASGI app once with a POST, returning status, content type and the raw body."""
    scope = {
        'type': 'http',
        'asgi': {'version': '3.0'},
        'http_version': '1.1',
        'method': 'POST',
        'scheme': 'http',
        'path': path,
        'raw_path': path.encode(),
        'query_string': b'',
        'root_path': '',
        'headers': [
            (b'host', b'127.0.0.1'),
            (b'content-type', b'application/json'),
            (b'accept', b'text/event-stream'),
            (b'a2a-version', b'1.0'),
            (b'content-length', str(len(body)).encode()),
        ],
        'client': ('127.0.0.1', 50000),
        'server': ('127.0.0.1', 80),
    }
    finished = asyncio.Event()
    sent_request = False

    async def receive():
        nonlocal sent_request
        if not sent_request:
            sent_request = True
            return {'type': 'http.request', 'body': body, 'more_body': False}
        await finished.wait()
        return {'type': 'http.disconnect'}

    status = 0
    content_type = ''
    chunks: list[bytes] = []

    async def send(message):
        nonlocal status, content_type
        if message['type'] == 'http.response.start':
            status = message['status']
            headers = {k.decode().lower(): v.decode() for k, v in message.get('headers', [])}
            content_type = headers.get('content-type', '')
        elif message['type'] == 'http.response.body':
            chunks.append(message.get('body', b''))
            if not message.get('more_body', False):
                finished.set()

    await asyncio.wait_for(app(scope, receive, send), timeout=30)
    return status, content_type, b''.join(chunks)


async def sdk_events(raw: bytes) -> list[dict]:
    response = httpx.Response(200, content=raw, headers={'content-type': 'text/event-stream'})
    return [{'event': name, 'data': data} async for name, data in parse_sse_stream(response)]


def canonical(message) -> dict:
    return json_format.MessageToDict(message)


def interpret(binding: str, event: dict):
    payload = json.loads(event['data'])
    if event['event'] == 'error':
        return payload
    if binding == 'HTTP+JSON':
        return canonical(parse_lenient(event['data'], a2a_pb2.StreamResponse()))
    if 'result' in payload:
        payload['result'] = canonical(parse_lenient(json.dumps(payload['result']), a2a_pb2.StreamResponse()))
    return payload


def send_message_request() -> dict:
    message = a2a_pb2.Message(
        message_id='m-1',
        role=a2a_pb2.Role.ROLE_USER,
        parts=[a2a_pb2.Part(text='Plan two days in Lisbon')],
    )
    return json_format.MessageToDict(a2a_pb2.SendMessageRequest(message=message))


async def generate(outdir: Path) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    card = agent_card()
    handlers = {
        'ok': DefaultRequestHandlerV2(agent_executor=TripPlanner(), task_store=InMemoryTaskStore(), agent_card=card),
        'a2a_error': FailingHandler(
            TaskNotFoundError('the task vanished mid-stream'),
            agent_executor=TripPlanner(), task_store=InMemoryTaskStore(), agent_card=card,
        ),
        'exception': FailingHandler(
            RuntimeError('the itinerary service is down'),
            agent_executor=TripPlanner(), task_store=InMemoryTaskStore(), agent_card=card,
        ),
        'error_before_first_event': FailingHandler(
            TaskNotFoundError('no such task'), after=0,
            agent_executor=TripPlanner(), task_store=InMemoryTaskStore(), agent_card=card,
        ),
    }
    cases = []
    for outcome, handler in handlers.items():
        app = app_for(handler)
        rest_body = json.dumps(send_message_request()).encode()
        rpc_body = json.dumps(
            {'jsonrpc': '2.0', 'id': 'req-7', 'method': 'SendStreamingMessage', 'params': send_message_request()}
        ).encode()
        for binding, path, body in [('HTTP+JSON', '/message:stream', rest_body), ('JSONRPC', '/rpc', rpc_body)]:
            name = f"{'http_json' if binding == 'HTTP+JSON' else 'jsonrpc'}_{outcome}"
            status, content_type, raw = await call(app, path, body)
            streams = 'text/event-stream' in content_type
            if streams == (outcome == 'error_before_first_event'):
                raise SystemExit(f'{name}: unexpected response {status} {content_type}: {raw[:300]!r}')
            (outdir / f'{name}.sse').write_bytes(raw)
            events = await sdk_events(raw) if streams else []
            cases.append(
                {
                    'case': name,
                    'binding': binding,
                    'status': status,
                    'content_type': content_type,
                    'body': f'{name}.sse',
                    'events': events,
                    'items': [interpret(binding, event) for event in events],
                }
            )
    (outdir / 'manifest.json').write_text(json.dumps(cases, indent=1, sort_keys=True, ensure_ascii=False))


async def check(outdir: Path) -> None:
    cases = json.loads((outdir / 'manifest.json').read_text())
    read = {}
    for case in cases:
        ours = outdir / 'ours' / case['body']
        if not ours.exists():
            continue
        events = await sdk_events(ours.read_bytes())
        read[case['case']] = {'events': events, 'items': [interpret(case['binding'], event) for event in events]}
    (outdir / 'ours' / 'read.json').write_text(json.dumps(read, indent=1, sort_keys=True, ensure_ascii=False))


def main() -> None:
    if len(sys.argv) != 3 or sys.argv[1] not in ('generate', 'check'):
        raise SystemExit(__doc__)
    # The failing cases make the SDK log tracebacks; they are expected here.
    logging.disable(logging.CRITICAL)
    command = generate if sys.argv[1] == 'generate' else check
    asyncio.run(command(Path(sys.argv[2])))


if __name__ == '__main__':
    main()
