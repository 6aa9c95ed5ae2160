"""Drives `a2a serve --proxy` with the official A2A Python SDK's v1 client (a2a-sdk 1.3.0), the proxy
fronting the SDK 0.3's own server (tests/interop/sdk_v0_3_agent_server.py): v1 calls on each of the
proxy's three bindings, answered by a v0.3 agent.

Usage: drive_proxy.py PROXY_URL

Per binding: a task (the v0.3 agent's echo artifact), a direct message, a file artifact's bytes, a
stream (working, the streamed artifact, completed), the task read back, a slow task canceled (and
the cancel seen in GetTask). Each check prints PASS or FAIL; the last lines are the pass counts per
binding (`BINDING: passed/total`). Exits 1 on any failure. Every call is bounded, the run 90 s.
"""

import asyncio
import sys
import time
import traceback

import grpc
import httpx

from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import a2a_pb2 as pb

CALL_TIMEOUT = 20.0
RESULTS: dict[str, list[bool]] = {}


def unique(prefix: str) -> str:
    return f'{prefix}-{time.monotonic_ns()}'


def message(message_id: str, text: str = 'hello proxy') -> pb.Message:
    return pb.Message(message_id=message_id, role=pb.Role.ROLE_USER, parts=[pb.Part(text=text)])


async def check(binding: str, name: str, body) -> None:
    try:
        await asyncio.wait_for(body(), CALL_TIMEOUT)
        ok, detail = True, ''
    except Exception as error:  # noqa: BLE001 - every failure is reported, none stops the run
        ok, detail = False, f'{type(error).__name__}: {error}\n{traceback.format_exc(limit=3)}'
    RESULTS.setdefault(binding, []).append(ok)
    print(f'{"PASS" if ok else "FAIL"} [{binding}] {name}{": " + detail if detail else ""}', flush=True)


def client_of(card: pb.AgentCard, binding: str, streaming: bool):
    factory = ClientFactory(ClientConfig(
        streaming=streaming,
        supported_protocol_bindings=[binding],
        grpc_channel_factory=lambda url: grpc.aio.insecure_channel(url),
    ))
    return factory.create(card)


async def one(client, request: pb.SendMessageRequest) -> pb.StreamResponse:
    answers = [a async for a in client.send_message(request)]
    assert len(answers) == 1, answers
    return answers[0]


async def drive(card: pb.AgentCard, binding: str) -> None:
    client = client_of(card, binding, streaming=False)
    streamer = client_of(card, binding, streaming=True)
    made: dict[str, str] = {}

    async def send_task():
        task = (await one(client, pb.SendMessageRequest(message=message(unique('v03-echo'))))).task
        assert task.status.state == pb.TaskState.TASK_STATE_COMPLETED, task.status
        assert [p.text for p in task.artifacts[0].parts] == ['echo: hello proxy'], task.artifacts
        made['task'] = task.id

    async def send_message():
        answer = await one(client, pb.SendMessageRequest(message=message(unique('v03-message'))))
        assert answer.HasField('message'), answer
        assert [p.text for p in answer.message.parts] == ['direct v0.3 answer'], answer.message

    async def file_artifact():
        task = (await one(client, pb.SendMessageRequest(message=message(unique('v03-file'))))).task
        part = task.artifacts[0].parts[0]
        assert (part.raw, part.filename) == (b'Generated file content', 'output.txt'), part

    async def stream():
        events = [e async for e in streamer.send_message(pb.SendMessageRequest(message=message(unique('v03-stream'))))]
        kinds = [e.WhichOneof('payload') for e in events]
        assert kinds[0] == 'task' and kinds[-1] == 'status_update', kinds
        texts = [e.artifact_update.artifact.parts[0].text for e in events if e.HasField('artifact_update')]
        assert texts == ['streamed v0.3 text'], texts
        states = [e.status_update.status.state for e in events if e.HasField('status_update')]
        assert states == [pb.TaskState.TASK_STATE_WORKING, pb.TaskState.TASK_STATE_COMPLETED], states

    async def get_task():
        task = await client.get_task(pb.GetTaskRequest(id=made['task']))
        assert (task.id, task.status.state) == (made['task'], pb.TaskState.TASK_STATE_COMPLETED), task

    async def cancel():
        request = pb.SendMessageRequest(
            message=message(unique('v03-slow')),
            configuration=pb.SendMessageConfiguration(return_immediately=True),
        )
        task = (await one(client, request)).task
        assert task.status.state in (pb.TaskState.TASK_STATE_SUBMITTED, pb.TaskState.TASK_STATE_WORKING), task.status
        canceled = await client.cancel_task(pb.CancelTaskRequest(id=task.id))
        assert canceled.status.state == pb.TaskState.TASK_STATE_CANCELED, canceled.status
        again = await client.get_task(pb.GetTaskRequest(id=task.id))
        assert again.status.state == pb.TaskState.TASK_STATE_CANCELED, again.status

    for name, body in [('send: a task', send_task), ('send: a message', send_message),
                       ('send: file bytes', file_artifact), ('stream', stream), ('get', get_task),
                       ('cancel', cancel)]:
        await check(binding, name, body)
    await client.close()
    await streamer.close()


async def main(url: str) -> None:
    async with httpx.AsyncClient() as http:
        card = await A2ACardResolver(http, url).get_agent_card()
    for binding in ('JSONRPC', 'HTTP+JSON', 'GRPC'):
        await drive(card, binding)


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        asyncio.run(asyncio.wait_for(main(sys.argv[1]), 90))
    except TimeoutError:
        RESULTS.setdefault('run', []).append(False)
        print('FAIL [run] finished within 90 s', flush=True)
    print()
    for binding, results in RESULTS.items():
        print(f'{binding}: {sum(results)}/{len(results)} passed')
    sys.exit(0 if all(all(r) for r in RESULTS.values()) else 1)
