#!/usr/bin/env python3
"""The official Python SDK's JSON-RPC server on a task store of choice: the peer rows of the store benchmark.

    python sdk_store_agent_server.py --store memory|sqlite:PATH|postgres:URL [--schema NAME]

a2a-testkit's store benchmark (`a2a-example-agent --load-stores`) runs this beside the example agent on the
same stores, so each row does the same work: the agent executor is sdk_agent_server.py's behaviour table,
plus `load-chunks` (working, one text artifact in LOAD_CHUNKS appended chunks, completed: the benchmark's
streamed task, as a2a-testkit's `behaviour::table`). The tasks live where --store says: the SDK's
InMemoryTaskStore, or its DatabaseTaskStore (SQLAlchemy) on an SQLite file through aiosqlite (WAL,
synchronous NORMAL, as our SQLite store runs) or on PostgreSQL through asyncpg; with --schema, every
PostgreSQL connection searches that schema first (the benchmark gives each run one of its own). The store makes its
table on first use.

Binds 127.0.0.1 only, serves JSON-RPC at URL/jsonrpc and the card at URL/.well-known/agent-card.json, and
prints one JSON line once it accepts connections: {"url": "http://127.0.0.1:PORT"}. Runs until killed or
until its standard input closes.
"""

import argparse
import asyncio
import json
import logging
import socket
import sys

import uvicorn
from starlette.applications import Starlette

from a2a.helpers.proto_helpers import new_task, new_text_part
from a2a.server.agent_execution import RequestContext
from a2a.server.events.event_queue_v2 import EventQueue
from a2a.server.request_handlers import DefaultRequestHandlerV2
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types.a2a_pb2 import TaskState

from sdk_agent_server import BehaviourTable, RequireVersionHeader, agent_card

# The benchmark's streamed task (a2a-testkit/src/behaviour/table.rs, LOAD_CHUNKS).
LOAD_CHUNKS = 50


class StoreBenchmarkTable(BehaviourTable):
    """The behaviour table with the store benchmark's streamed task."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        if not (message and message.message_id.startswith('load-chunks')):
            await super().execute(context, event_queue)
            return
        task_id, context_id = context.task_id, context.context_id
        if context.current_task is None:
            await event_queue.enqueue_event(
                new_task(task_id, context_id, TaskState.TASK_STATE_SUBMITTED, history=[message])
            )
        updater = TaskUpdater(event_queue, task_id, context_id)
        await updater.start_work()
        for number in range(1, LOAD_CHUNKS + 1):
            await updater.add_artifact(
                [new_text_part(f'chunk-{number} ')],
                artifact_id='chunks',
                name='chunks',
                append=number > 1,
                last_chunk=number == LOAD_CHUNKS,
            )
        await updater.complete()


def task_store(choice: str, schema: str | None):
    """The store --store names; a DatabaseTaskStore needs SQLAlchemy and the database's driver."""
    if choice == 'memory':
        return InMemoryTaskStore()
    from sqlalchemy import event
    from sqlalchemy.ext.asyncio import create_async_engine

    from a2a.server.tasks.database_task_store import DatabaseTaskStore

    if choice.startswith('sqlite:'):
        # As our SQLite store runs: WAL, synchronous NORMAL, and writers waiting for the lock (up to 30 s)
        # rather than failing at once under concurrent requests.
        engine = create_async_engine(
            f'sqlite+aiosqlite:///{choice.removeprefix("sqlite:")}', connect_args={'timeout': 30}
        )

        @event.listens_for(engine.sync_engine, 'connect')
        def configure(connection, _record) -> None:
            cursor = connection.cursor()
            cursor.execute('PRAGMA journal_mode = WAL')
            cursor.execute('PRAGMA synchronous = NORMAL')
            cursor.close()

    elif choice.startswith('postgres:'):
        url = choice.removeprefix('postgres:')
        url = 'postgresql+asyncpg://' + url.split('://', 1)[1]
        settings = {'search_path': schema} if schema else {}
        engine = create_async_engine(url, connect_args={'server_settings': settings})
    else:
        raise SystemExit(f'--store: expected memory, sqlite:PATH or postgres:URL, got {choice!r}')
    return DatabaseTaskStore(engine)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--store', default='memory')
    parser.add_argument('--schema', default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR, stream=sys.stderr)

    store = task_store(args.store, args.schema)
    if hasattr(store, 'initialize'):
        await store.initialize()

    http_socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    http_socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    http_socket.bind(('127.0.0.1', 0))
    url = f'http://127.0.0.1:{http_socket.getsockname()[1]}'

    card = agent_card(url, '127.0.0.1:0', extended=False)
    # JSON-RPC only: the benchmark speaks nothing else, and no gRPC server runs here.
    del card.supported_interfaces[1:]
    card.capabilities.push_notifications = False
    card.capabilities.extended_agent_card = False
    handler = DefaultRequestHandlerV2(
        agent_executor=StoreBenchmarkTable(resubscribe_delay=0),
        task_store=store,
        agent_card=card,
    )
    routes = create_agent_card_routes(card) + create_jsonrpc_routes(handler, rpc_url='/jsonrpc')
    app = RequireVersionHeader(Starlette(routes=routes))

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
