#!/usr/bin/env python3
"""An A2A v0.3 agent served by the official Python SDK 0.3.x's own server classes, on all three bindings.

    python sdk_v0_3_agent_server.py [--delay SECONDS] [--preferred JSONRPC|HTTP+JSON|GRPC]

The v0.3 peer the Rust client crate (a2a-client) is proven against through the bridge: its v1 calls
go out as v0.3 JSON-RPC (`message/send`, `tasks/get`, ...), v0.3 HTTP+JSON (`POST /v1/message:send`,
...) or v0.3 gRPC (`a2a.v1.A2AService`), and the answers come back converted. Runs under a2a-sdk 0.3.x
with its `grpc` extra (tests/interop/requirements-v0_3.txt, its own virtual environment): everything
that speaks the protocol is the SDK's (one DefaultRequestHandler over an InMemoryTaskStore and an
InMemoryPushNotificationConfigStore, shared by A2AStarletteApplication's JSON-RPC routes at `/`,
A2ARESTFastAPIApplication's routes under `/rest`, both served by uvicorn, and GrpcHandler on a
grpc.aio server). Only the executor is ours, choosing its behaviour by the prefix of the message's
messageId:

  v03-slow       working, then completed after --delay seconds (cancelable meanwhile)
  v03-stream     working, one text artifact "streamed v0.3 text", completed
  v03-message    a message, no task: "direct v0.3 answer"
  v03-file       a completed task with the file artifact "output.txt" whose bytes are
                 "Generated file content" (text/plain; the SDK writes their base64 text)
  anything else  a completed task whose artifact echoes the request's text

Binds 127.0.0.1 only, on two ports the OS picks, and prints one JSON line once both accept
connections: {"url": "http://127.0.0.1:PORT", "rest": "URL/rest", "grpc": "127.0.0.1:PORT2"} (the
v0.3 card is at URL/.well-known/agent-card.json; its `url` and `preferredTransport` are the interface
--preferred names, JSON-RPC by default, and `additionalInterfaces` lists all three). Runs until killed
or until its standard input closes.
"""

import argparse
import asyncio
import base64
import json
import logging
import socket
import sys

import grpc
import httpx
import uvicorn

from a2a.grpc import a2a_pb2_grpc
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.apps import A2ARESTFastAPIApplication, A2AStarletteApplication
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler, GrpcHandler
from a2a.server.tasks import (
    BasePushNotificationSender,
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    FilePart,
    FileWithBytes,
    Part,
    TaskState,
    TextPart,
)
from a2a.utils import new_agent_text_message, new_task
from a2a.utils.message import get_message_text


class BehaviourTable(AgentExecutor):
    def __init__(self, delay: float) -> None:
        self.delay = delay

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        message_id = message.message_id
        if message_id.startswith('v03-message'):
            await event_queue.enqueue_event(
                new_agent_text_message('direct v0.3 answer', context.context_id)
            )
            return
        task = context.current_task or new_task(message)
        await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        if message_id.startswith('v03-slow'):
            await updater.start_work()
            await asyncio.sleep(self.delay)
            await updater.complete()
        elif message_id.startswith('v03-file'):
            content = base64.b64encode(b'Generated file content').decode()
            file = FileWithBytes(bytes=content, mime_type='text/plain', name='output.txt')
            await updater.add_artifact([Part(root=FilePart(file=file))], name='file')
            await updater.complete()
        elif message_id.startswith('v03-stream'):
            await updater.start_work()
            await updater.add_artifact([Part(root=TextPart(text='streamed v0.3 text'))], name='stream')
            await updater.complete()
        else:
            text = get_message_text(message)
            await updater.add_artifact([Part(root=TextPart(text=f'echo: {text}'))], name='echo')
            await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        await updater.update_status(TaskState.canceled, final=True)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--delay', type=float, default=2.0)
    parser.add_argument('--preferred', choices=['JSONRPC', 'HTTP+JSON', 'GRPC'], default='JSONRPC')
    args = parser.parse_args()
    # The tests provoke failures on purpose (unimplemented methods, bodies the SDK cannot parse):
    # only a crash is worth printing.
    logging.basicConfig(level=logging.CRITICAL, stream=sys.stderr)

    http_socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    http_socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    http_socket.bind(('127.0.0.1', 0))
    url = f'http://127.0.0.1:{http_socket.getsockname()[1]}'
    grpc_server = grpc.aio.server()
    grpc_target = f'127.0.0.1:{grpc_server.add_insecure_port("127.0.0.1:0")}'
    interfaces = {'JSONRPC': f'{url}/', 'HTTP+JSON': f'{url}/rest', 'GRPC': grpc_target}

    card = AgentCard(
        name='SDK v0.3 agent',
        description='The official SDK 0.3 server classes, for the Rust client through the bridge',
        url=interfaces[args.preferred],
        version='0.3.0',
        protocol_version='0.3.0',
        preferred_transport=args.preferred,
        additional_interfaces=[
            AgentInterface(transport=transport, url=interface_url)
            for transport, interface_url in interfaces.items()
        ],
        capabilities=AgentCapabilities(streaming=True, push_notifications=True),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[AgentSkill(id='echo', name='Echo', description='Echoes the text', tags=['echo'])],
    )
    push_store = InMemoryPushNotificationConfigStore()
    push_client = httpx.AsyncClient(timeout=5)
    handler = DefaultRequestHandler(
        agent_executor=BehaviourTable(args.delay),
        task_store=InMemoryTaskStore(),
        push_config_store=push_store,
        push_sender=BasePushNotificationSender(push_client, push_store),
    )
    # One HTTP app: the REST routes under /rest, the JSON-RPC routes (and the card) at the root.
    app = A2ARESTFastAPIApplication(agent_card=card, http_handler=handler).build(rpc_url='/rest')
    A2AStarletteApplication(agent_card=card, http_handler=handler).add_routes_to_app(app)
    a2a_pb2_grpc.add_A2AServiceServicer_to_server(GrpcHandler(card, handler), grpc_server)
    await grpc_server.start()

    http_server = uvicorn.Server(uvicorn.Config(app, log_level='warning', lifespan='off'))
    serving = asyncio.create_task(http_server.serve(sockets=[http_socket]))
    while not http_server.started:
        if serving.done():
            serving.result()
            return
        await asyncio.sleep(0.02)
    print(json.dumps({'url': url, 'rest': interfaces['HTTP+JSON'], 'grpc': grpc_target}), flush=True)

    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    http_server.should_exit = True
    await serving
    await grpc_server.stop(None)
    await push_client.aclose()


if __name__ == '__main__':
    asyncio.run(main())
