#!/usr/bin/env python3
"""An A2A v0.2 agent served by the official Python SDK 0.2.x's own server classes, on JSON-RPC.

    python sdk_v0_2_agent_server.py [--delay SECONDS]

The v0.2 peer the Rust client crate (a2a-client) is proven against: the client reads its card at the
v0.2 well-known path (`/.well-known/agent.json`, after `agent-card.json` answers 404), recognises
`protocolVersion` 0.2.x and sends its v1 calls as JSON-RPC `message/send`, `message/stream`,
`tasks/get`, `tasks/cancel`, `tasks/resubscribe` and `tasks/pushNotificationConfig/set|get|list|delete`
(the v0.3 bridge's wire, which v0.2 shares), and GETs its authenticated extended card (the public
card says `supportsAuthenticatedExtendedCard`; the SDK serves the extended card, which adds the skill
`extended-echo`, at `/agent/authenticatedExtendedCard`). The SDK checks no credentials there: a
middleware of ours answers that path 401 unless `Authorization: Bearer v02-extended-token` comes
with it, so the client is seen sending its credentials. Runs under a2a-sdk 0.2.x
(tests/interop/requirements-v0_2.txt, its own virtual environment): everything that speaks the
protocol is the SDK's (DefaultRequestHandler over an InMemoryTaskStore and an
InMemoryPushNotificationConfigStore, A2AStarletteApplication at `/`, served by uvicorn). The configs
are stored and answered, never delivered (no push sender: nothing leaves the machine). Only the
executor is ours, choosing its behaviour by the prefix of the message's messageId:

  v02-slow       working, then completed after --delay seconds (cancelable and resubscribable meanwhile)
  v02-stream     working, one text artifact "streamed v0.2 text", completed
  v02-message    a message, no task: "direct v0.2 answer"
  anything else  a completed task whose artifact echoes the request's text

Binds 127.0.0.1 only, on a port the OS picks, and prints one JSON line once it accepts connections:
{"url": "http://127.0.0.1:PORT"}. Runs until killed or until its standard input closes.
"""

import argparse
import asyncio
import json
import logging
import socket
import sys

import uvicorn
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.apps import A2AStarletteApplication
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import InMemoryPushNotificationConfigStore, InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentSkill, Part, TaskState, TextPart
from a2a.utils import new_agent_text_message, new_task
from a2a.utils.message import get_message_text
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.responses import JSONResponse

EXTENDED_CARD_PATH = '/agent/authenticatedExtendedCard'
EXTENDED_CARD_TOKEN = 'v02-extended-token'


async def guard_extended_card(request, call_next):
    """Refuses the extended card without the test's bearer token (the SDK itself checks none)."""
    if request.url.path == EXTENDED_CARD_PATH:
        if request.headers.get('authorization') != f'Bearer {EXTENDED_CARD_TOKEN}':
            return JSONResponse(
                {'error': 'the extended card needs a bearer token'},
                status_code=401,
                headers={'WWW-Authenticate': 'Bearer'},
            )
    return await call_next(request)


class BehaviourTable(AgentExecutor):
    def __init__(self, delay: float) -> None:
        self.delay = delay

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        message_id = message.message_id
        if message_id.startswith('v02-message'):
            await event_queue.enqueue_event(
                new_agent_text_message('direct v0.2 answer', context.context_id)
            )
            return
        task = context.current_task or new_task(message)
        await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        if message_id.startswith('v02-slow'):
            await updater.start_work()
            await asyncio.sleep(self.delay)
            await updater.complete()
        elif message_id.startswith('v02-stream'):
            await updater.start_work()
            await updater.add_artifact([Part(root=TextPart(text='streamed v0.2 text'))], name='stream')
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
    args = parser.parse_args()
    # The tests provoke failures on purpose: only a crash is worth printing.
    logging.basicConfig(level=logging.CRITICAL, stream=sys.stderr)

    http_socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    http_socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    http_socket.bind(('127.0.0.1', 0))
    url = f'http://127.0.0.1:{http_socket.getsockname()[1]}'
    card = AgentCard(
        name='SDK v0.2 agent',
        description='The official SDK 0.2 server classes, for the Rust client',
        url=f'{url}/',
        version='0.2.0',
        capabilities=AgentCapabilities(streaming=True, push_notifications=True),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[AgentSkill(id='echo', name='Echo', description='Echoes the text', tags=['echo'])],
        supports_authenticated_extended_card=True,
    )
    extended_card = card.model_copy(
        update={
            'skills': [
                *card.skills,
                AgentSkill(
                    id='extended-echo',
                    name='Extended echo',
                    description='Only authenticated clients see it',
                    tags=['echo'],
                ),
            ]
        }
    )
    handler = DefaultRequestHandler(
        agent_executor=BehaviourTable(args.delay),
        task_store=InMemoryTaskStore(),
        push_config_store=InMemoryPushNotificationConfigStore(),
    )
    app = A2AStarletteApplication(
        agent_card=card, http_handler=handler, extended_agent_card=extended_card
    ).build()
    app.add_middleware(BaseHTTPMiddleware, dispatch=guard_extended_card)
    http_server = uvicorn.Server(uvicorn.Config(app, log_level='warning', lifespan='off'))
    serving = asyncio.create_task(http_server.serve(sockets=[http_socket]))
    while not http_server.started:
        if serving.done():
            serving.result()
            return
        await asyncio.sleep(0.02)
    print(json.dumps({'url': url}), flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    http_server.should_exit = True
    await serving


if __name__ == '__main__':
    asyncio.run(main())
