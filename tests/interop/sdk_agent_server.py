#!/usr/bin/env python3
"""An A2A v1 agent served by the official Python SDK's own server classes, on all three bindings.

    python sdk_agent_server.py [--resubscribe-delay SECONDS] [--token TOKEN]

The peer that the Rust conformance run (a2a-testkit's `conformance`) is proven against. Everything that
speaks the protocol is the SDK's: DefaultRequestHandlerV2 over an InMemoryTaskStore, an
InMemoryPushNotificationConfigStore with the BasePushNotificationSender, the JSON-RPC and REST route
factories inside a Starlette app served by uvicorn, and GrpcHandler on a grpc.aio server. Only the agent
executor below is ours: it chooses its behaviour by the prefix of the incoming message's messageId, the
convention conformance kits use (the table is a2a-testkit's `behaviour::table`, which the workspace's
example agent answers, so the same checks run against both):

  tck-complete-task            a completed task whose status message is "Hello from TCK"
  tck-artifact-text|-file|-file-url|-data
                               a completed task with one artifact (text, raw file, file URL, data)
  tck-message-response         a message, no task: "Direct message response"
  tck-input-required           a task in input-required
  tck-reject-task              a rejected task, status message "rejected"
  tck-stream-001|-003|-ordering-001|-artifact-text
                               working, one text artifact, completed
  tck-stream-002               one completed status
  tck-stream-artifact-file     working, a file artifact, completed
  tck-stream-artifact-chunked  working, chunk "chunk-1 ", last chunk "chunk-2" (append), completed
  test-resubscribe-message-id  working, waits --resubscribe-delay seconds, completed (cancelable)
  load-progress                working, PROGRESS_UPDATES versions of the text artifact "progress" (each
                               replaces the last, PROGRESS_TEXT_BYTES characters), completed: the
                               load test's slow readers (as the example agent's load-progress)
  anything else                a completed task whose artifact echoes the request's text

Binds 127.0.0.1 only, on ports the OS picks, and prints one JSON line once both servers accept
connections: {"url": "http://127.0.0.1:PORT", "grpc": "127.0.0.1:PORT", "token": TOKEN}. The agent card
is at URL/.well-known/agent-card.json; JSON-RPC is served at URL/jsonrpc, HTTP+JSON under URL/rest.
GetExtendedAgentCard answers the extended card (one more skill, "vip-lounge") only to a request with
`Authorization: Bearer TOKEN` (HTTP header or gRPC metadata); any other caller gets the public card.
Every request but the card's must carry the `A2A-Version` service parameter with a 1.x version (HTTP
header or gRPC metadata): one without is refused (HTTP 400, gRPC FAILED_PRECONDITION, neither an A2A
error), so a client that forgets it fails every check. Runs until killed or until its standard input
closes, so it never outlives the test that started it.
"""

import argparse
import asyncio
import json
import logging
import socket
import sys

import grpc
import httpx
import uvicorn
from starlette.applications import Starlette

import a2a.types.a2a_pb2_grpc as a2a_grpc
from a2a.helpers.proto_helpers import (
    new_artifact,
    new_data_part,
    new_raw_part,
    new_task,
    new_text_message,
    new_text_part,
    new_url_part,
    get_message_text,
)
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events.event_queue_v2 import EventQueue
from a2a.server.request_handlers import DefaultRequestHandlerV2
from a2a.server.request_handlers.grpc_handler import GrpcHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.server.tasks.base_push_notification_sender import BasePushNotificationSender
from a2a.server.tasks.inmemory_push_notification_config_store import InMemoryPushNotificationConfigStore
from a2a.types import a2a_pb2
from a2a.types.a2a_pb2 import TaskState

STREAM_TEXT = {
    'tck-stream-001': 'Stream hello from TCK',
    'tck-stream-003': 'Stream task lifecycle',
    'tck-stream-ordering-001': 'Ordered output',
    'tck-stream-artifact-text': 'Streamed text content',
}

# The load test's load-progress (a2a-testkit/src/behaviour/table.rs).
PROGRESS_UPDATES = 100
PROGRESS_TEXT_BYTES = 256


def progress_text(index: int) -> str:
    return f'progress {index:03} '.ljust(PROGRESS_TEXT_BYTES, '.')


class BehaviourTable(AgentExecutor):
    """Answers by the messageId prefix (see the module doc)."""

    def __init__(self, resubscribe_delay: float):
        self.resubscribe_delay = resubscribe_delay

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        message_id = message.message_id if message else ''
        task_id, context_id = context.task_id, context.context_id
        if message_id.startswith('tck-message-response'):
            await event_queue.enqueue_event(
                new_text_message('Direct message response', context_id=context_id)
            )
            return
        if context.current_task is None:
            await event_queue.enqueue_event(
                new_task(task_id, context_id, TaskState.TASK_STATE_SUBMITTED, history=[message])
            )
        updater = TaskUpdater(event_queue, task_id, context_id)

        def agent_text(text: str) -> a2a_pb2.Message:
            return updater.new_agent_message([new_text_part(text)])

        async def artifact(part: a2a_pb2.Part, name: str = 'output') -> None:
            await updater.add_artifact([part], name=name)

        if message_id.startswith('tck-complete-task'):
            await updater.complete(agent_text('Hello from TCK'))
        elif message_id.startswith('tck-artifact-text'):
            await artifact(new_text_part('Generated text content'))
            await updater.complete()
        elif message_id.startswith('tck-artifact-file-url'):
            await artifact(new_url_part('https://example.com/output.txt', 'text/plain', 'output.txt'))
            await updater.complete()
        elif message_id.startswith('tck-artifact-file'):
            await artifact(new_raw_part(b'Generated file content', 'text/plain', 'output.txt'))
            await updater.complete()
        elif message_id.startswith('tck-artifact-data'):
            await artifact(new_data_part({'key': 'value', 'count': 42}))
            await updater.complete()
        elif message_id.startswith('tck-input-required'):
            await updater.requires_input(agent_text('What date?'))
        elif message_id.startswith('tck-reject-task'):
            await updater.reject(agent_text('rejected'))
        elif message_id.startswith('tck-stream-002'):
            await updater.complete()
        elif message_id.startswith('tck-stream-artifact-file'):
            await updater.start_work()
            await artifact(new_raw_part(b'Streamed file content', 'text/plain', 'output.txt'))
            await updater.complete()
        elif message_id.startswith('tck-stream-artifact-chunked'):
            await updater.start_work()
            await updater.add_artifact([new_text_part('chunk-1 ')], artifact_id='chunked', name='chunked')
            await updater.add_artifact(
                [new_text_part('chunk-2')], artifact_id='chunked', append=True, last_chunk=True
            )
            await updater.complete()
        elif any(message_id.startswith(prefix) for prefix in STREAM_TEXT):
            text = next(t for p, t in STREAM_TEXT.items() if message_id.startswith(p))
            await updater.start_work()
            await artifact(new_text_part(text))
            await updater.complete()
        elif message_id.startswith('test-resubscribe-message-id'):
            await updater.start_work()
            await asyncio.sleep(self.resubscribe_delay)
            await updater.complete()
        elif message_id.startswith('load-progress'):
            await updater.start_work()
            for index in range(PROGRESS_UPDATES):
                await updater.add_artifact(
                    [new_text_part(progress_text(index))],
                    artifact_id='progress',
                    name='progress',
                    last_chunk=index + 1 == PROGRESS_UPDATES,
                )
            await updater.complete()
        else:
            await artifact(new_text_part(f'understood: {get_message_text(message)}'), name='echo')
            await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.cancel()


def agent_card(url: str, grpc_target: str, extended: bool) -> a2a_pb2.AgentCard:
    skills = [
        a2a_pb2.AgentSkill(
            id='behaviour-table',
            name='Behaviour table',
            description='Answers by the messageId prefix, as conformance kits expect',
            tags=['test'],
        )
    ]
    if extended:
        skills.append(
            a2a_pb2.AgentSkill(
                id='vip-lounge',
                name='VIP lounge',
                description='Only listed on the extended card',
                tags=['extended'],
            )
        )
    return a2a_pb2.AgentCard(
        name='SDK reference agent',
        description='The official A2A Python SDK server classes over a behaviour table',
        version='1.0.0',
        supported_interfaces=[
            a2a_pb2.AgentInterface(url=f'{url}/jsonrpc', protocol_binding='JSONRPC', protocol_version='1.0'),
            a2a_pb2.AgentInterface(url=f'{url}/rest', protocol_binding='HTTP+JSON', protocol_version='1.0'),
            a2a_pb2.AgentInterface(url=grpc_target, protocol_binding='GRPC', protocol_version='1.0'),
        ],
        capabilities=a2a_pb2.AgentCapabilities(
            streaming=True, push_notifications=True, extended_agent_card=True
        ),
        security_schemes={
            'bearer': a2a_pb2.SecurityScheme(
                http_auth_security_scheme=a2a_pb2.HTTPAuthSecurityScheme(scheme='bearer')
            )
        },
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=skills,
    )


def speaks_v1(version: str | None) -> bool:
    return version is not None and (version == '1' or version.startswith('1.'))


class RequireVersionHeader:
    """ASGI middleware refusing A2A requests without `A2A-Version: 1.x` (the card is exempt)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope['type'] == 'http' and not scope['path'].startswith('/.well-known/'):
            headers = {k.decode('latin-1').lower(): v.decode('latin-1') for k, v in scope['headers']}
            if not speaks_v1(headers.get('a2a-version')):
                body = b'{"problem": "the A2A-Version header is missing or not 1.x"}'
                await send({
                    'type': 'http.response.start',
                    'status': 400,
                    'headers': [(b'content-type', b'application/json')],
                })
                await send({'type': 'http.response.body', 'body': body})
                return
        await self.app(scope, receive, send)


class RequireVersionMetadata(grpc.aio.ServerInterceptor):
    """Refuses gRPC calls without `a2a-version: 1.x` metadata."""

    async def intercept_service(self, continuation, handler_call_details):
        metadata = dict(handler_call_details.invocation_metadata or ())
        if speaks_v1(metadata.get('a2a-version')):
            return await continuation(handler_call_details)

        async def refuse(request, context):
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, 'a2a-version metadata missing or not 1.x')

        handler = await continuation(handler_call_details)
        if handler is not None and handler.response_streaming:
            async def refuse_stream(request, context):
                await refuse(request, context)
                yield  # pragma: no cover - abort raises

            return grpc.unary_stream_rpc_method_handler(
                refuse_stream,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return grpc.unary_unary_rpc_method_handler(
            refuse,
            request_deserializer=handler.request_deserializer if handler else None,
            response_serializer=handler.response_serializer if handler else None,
        )


def bearer_of(context) -> str | None:
    """The Authorization header of an HTTP request, or the authorization metadata of a gRPC call."""
    grpc_context = context.state.get('grpc_context')
    if grpc_context is not None:
        for key, value in grpc_context.invocation_metadata() or ():
            if key.lower() == 'authorization':
                return value if isinstance(value, str) else value.decode()
        return None
    headers = context.state.get('headers') or {}
    return headers.get('authorization')


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--resubscribe-delay', type=float, default=2.0)
    parser.add_argument('--token', default='example-extended-card-token')
    args = parser.parse_args()
    # Errors only: the expected A2A errors of a conformance run are logged as warnings by the SDK.
    logging.basicConfig(level=logging.ERROR, stream=sys.stderr)

    http_socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    http_socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    http_socket.bind(('127.0.0.1', 0))
    url = f'http://127.0.0.1:{http_socket.getsockname()[1]}'

    grpc_server = grpc.aio.server(interceptors=[RequireVersionMetadata()])
    grpc_port = grpc_server.add_insecure_port('127.0.0.1:0')
    grpc_target = f'127.0.0.1:{grpc_port}'

    public_card = agent_card(url, grpc_target, extended=False)
    extended_card = agent_card(url, grpc_target, extended=True)

    async def only_with_token(card: a2a_pb2.AgentCard, context) -> a2a_pb2.AgentCard:
        return card if bearer_of(context) == f'Bearer {args.token}' else public_card

    push_store = InMemoryPushNotificationConfigStore()
    push_client = httpx.AsyncClient(timeout=5)
    handler = DefaultRequestHandlerV2(
        agent_executor=BehaviourTable(args.resubscribe_delay),
        task_store=InMemoryTaskStore(),
        agent_card=public_card,
        push_config_store=push_store,
        push_sender=BasePushNotificationSender(push_client, push_store),
        extended_agent_card=extended_card,
        extended_card_modifier=only_with_token,
    )

    routes = (
        create_agent_card_routes(public_card)
        + create_jsonrpc_routes(handler, rpc_url='/jsonrpc')
        + create_rest_routes(handler, path_prefix='/rest')
    )
    app = RequireVersionHeader(Starlette(routes=routes))
    a2a_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler), grpc_server)
    await grpc_server.start()

    http_server = uvicorn.Server(uvicorn.Config(app, log_level='warning', lifespan='off'))
    serving = asyncio.create_task(http_server.serve(sockets=[http_socket]))
    while not http_server.started:
        if serving.done():
            serving.result()
            return
        await asyncio.sleep(0.02)
    print(json.dumps({'url': url, 'grpc': grpc_target, 'token': args.token}), flush=True)

    # Standard input closing means the parent is gone: stop rather than linger.
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    http_server.should_exit = True
    await serving
    await grpc_server.stop(0)
    await push_client.aclose()


if __name__ == '__main__':
    asyncio.run(main())
