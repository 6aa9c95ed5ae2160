"""Drives two replicas of the Rust example agent on one PostgreSQL with the official A2A Python SDK's client.

Usage: drive_replicas.py REPLICA_A_URL REPLICA_B_URL

Both replicas are `a2a-example-agent --listen … --store postgres://…` on the same database. On each
binding (JSON-RPC, HTTP+JSON, gRPC), through the SDK's own client:

- a task sent on A is read on B (GetTask), listed on B (ListTasks with its context), canceled on B
  (and A then reads it canceled);
- a stream on B (SubscribeToTask) follows a task A executes (`test-slow-chunks`: an artifact in 30
  numbered chunks) to its end, every chunk once and in order;
- replica B is killed mid-stream: the script prints `KILL-B`; the test kills B (SIGKILL, by its
  pid) and answers `killed` on the script's standard input, then starts B again on the same ports
  and answers `restarted` (awaited before the next binding); meanwhile, once A has made chunks no
  stream carried, the client resubscribes on A and misses no chunk: the chunks B streamed, then those in A's first
  event (the task as stored), then those A streams are the whole artifact, each chunk once, in order,
  and the task ends completed.

Prints PASS or FAIL per check and the pass counts per binding; exits 1 on any failure. Bounded: every
step has a timeout, the whole run 150 s.
"""

import asyncio
import re
import sys
import time

import httpx

from a2a.client import A2ACardResolver
from a2a.types import a2a_pb2 as pb
from a2a.utils.constants import TransportProtocol

import sdk_driver

CALL_TIMEOUT = 20.0
SLOW_CHUNKS = 30
WHOLE = [f'chunk-{n} ' for n in range(1, SLOW_CHUNKS + 1)]

async def check(binding: str, name: str, body) -> None:
    """One check, within this script's call timeout."""
    await sdk_driver.check(binding, name, body, CALL_TIMEOUT)


def unique(prefix: str) -> str:
    return f'{prefix}-{time.monotonic_ns()}'


def user_message(message_id: str, **fields) -> pb.Message:
    return pb.Message(message_id=message_id, role=pb.Role.ROLE_USER, parts=[pb.Part(text='hello')], **fields)


async def send_one(client, request: pb.SendMessageRequest) -> pb.StreamResponse:
    events = [e async for e in client.send_message(request)]
    assert len(events) == 1, f'a non-streaming send yields one response, not {len(events)}'
    return events[0]


async def start_task(client, message_id: str) -> pb.Task:
    """Sends a message with returnImmediately and returns the task as it stands."""
    request = pb.SendMessageRequest(
        message=user_message(message_id), configuration=pb.SendMessageConfiguration(return_immediately=True)
    )
    response = await send_one(client, request)
    assert response.HasField('task'), response
    return response.task


def chunks_of_task(task: pb.Task) -> list[str]:
    """The chunks of the slow artifact as the task stands (each appended chunk is one part)."""
    return [p.text for a in task.artifacts if a.artifact_id == 'artifact-1' for p in a.parts]


def chunk_number(text: str) -> int:
    found = re.fullmatch(r'chunk-(\d+) ', text)
    assert found, f'not a chunk: {text!r}'
    return int(found.group(1))


class Followed:
    """What one subscription delivered: the chunks of its first event (the stored task), the chunks
    streamed after it, the states it saw, and whether it ended with an error."""

    def __init__(self) -> None:
        self.snapshot: list[str] | None = None
        self.streamed: list[str] = []
        self.states: list[int] = []
        self.error: str | None = None

    def take(self, event: pb.StreamResponse) -> None:
        kind = event.WhichOneof('payload')
        if kind == 'task':
            assert self.snapshot is None, 'one task event, the first'
            self.snapshot = chunks_of_task(event.task)
            self.states.append(event.task.status.state)
        elif kind == 'artifact_update':
            assert self.snapshot is not None, 'the task comes first'
            self.streamed.extend(p.text for p in event.artifact_update.artifact.parts)
        elif kind == 'status_update':
            self.states.append(event.status_update.status.state)

    def seen(self) -> list[str]:
        return (self.snapshot or []) + self.streamed


def assert_in_order(chunks: list[str], what: str) -> None:
    numbers = [chunk_number(c) for c in chunks]
    assert numbers == list(range(1, len(numbers) + 1)), f'{what}: chunks out of order, repeated or missing: {numbers}'


async def drive(binding: str, card_a: pb.AgentCard, card_b: pb.AgentCard, kill_b) -> None:
    on_a = sdk_driver.make_client(card_a, binding, streaming=False)
    on_b = sdk_driver.make_client(card_b, binding, streaming=False)
    streamer_a = sdk_driver.make_client(card_a, binding, streaming=True)
    streamer_b = sdk_driver.make_client(card_b, binding, streaming=True)

    async def get_on_b():
        sent = (await send_one(on_a, pb.SendMessageRequest(message=user_message(unique('tck-artifact-text'))))).task
        assert sent.status.state == pb.TaskState.TASK_STATE_COMPLETED, sent.status
        got = await on_b.get_task(pb.GetTaskRequest(id=sent.id))
        assert got.id == sent.id and got.status.state == pb.TaskState.TASK_STATE_COMPLETED, got.status
        assert [p.text for p in got.artifacts[0].parts] == ['Generated text content'], got.artifacts

    async def list_on_b():
        context_id = unique(f'ctx-replicas-{binding}')
        sent = set()
        for _ in range(3):
            request = pb.SendMessageRequest(message=user_message(unique('tck-complete-task'), context_id=context_id))
            sent.add((await send_one(on_a, request)).task.id)
        listed = await on_b.list_tasks(pb.ListTasksRequest(context_id=context_id))
        assert listed.total_size == 3 and {t.id for t in listed.tasks} == sent, listed

    async def cancel_on_b():
        task = await start_task(on_a, unique('tck-cancel'))
        assert task.status.state in (pb.TaskState.TASK_STATE_SUBMITTED, pb.TaskState.TASK_STATE_WORKING), task.status
        canceled = await on_b.cancel_task(pb.CancelTaskRequest(id=task.id))
        assert canceled.status.state == pb.TaskState.TASK_STATE_CANCELED, canceled.status
        again = await on_a.get_task(pb.GetTaskRequest(id=task.id))
        assert again.status.state == pb.TaskState.TASK_STATE_CANCELED, again.status

    async def subscribe_on_b():
        task = await start_task(on_a, unique('test-slow-chunks'))
        followed = Followed()
        async for event in streamer_b.subscribe(pb.SubscribeToTaskRequest(id=task.id)):
            followed.take(event)
        assert followed.streamed, 'B streamed chunks as A made them'
        assert followed.seen() == WHOLE, f'B delivered {len(followed.seen())} chunks: {followed.seen()}'
        assert followed.states[-1] == pb.TaskState.TASK_STATE_COMPLETED, followed.states

    async def replica_killed_mid_stream():
        task = await start_task(on_a, unique('test-slow-chunks'))
        before = Followed()
        stream = streamer_b.subscribe(pb.SubscribeToTaskRequest(id=task.id)).__aiter__()
        while len(before.streamed) < 3:
            before.take(await stream.__anext__())
        await kill_b()
        try:
            async for event in stream:
                before.take(event)
            before.error = 'the stream ended without an error'
        except Exception as error:  # noqa: BLE001 - the cut is expected; which error depends on the binding
            before.error = type(error).__name__
        assert before.states[-1] != pb.TaskState.TASK_STATE_COMPLETED, 'B was killed before the end'
        assert_in_order(before.seen(), 'B before the kill')
        # The client reconnects only once A has made chunks no stream carried (a reconnect's
        # back-off): they must come back too.
        deadline = time.monotonic() + CALL_TIMEOUT / 2
        while len(chunks_of_task(await on_a.get_task(pb.GetTaskRequest(id=task.id)))) <= len(before.seen()):
            assert time.monotonic() < deadline, 'A went on with the task'
            await asyncio.sleep(0.05)
        after = Followed()
        async for event in streamer_a.subscribe(pb.SubscribeToTaskRequest(id=task.id)):
            after.take(event)
        assert_in_order(after.seen(), 'A after the resubscription')
        assert after.seen() == WHOLE, f'A delivered {len(after.seen())} chunks: {after.seen()}'
        assert after.snapshot[: len(before.seen())] == before.seen(), 'A\'s task holds every chunk B streamed'
        missed = after.snapshot[len(before.seen()):]
        assert missed, 'chunks made while no stream was open come back in A\'s first event'
        assert before.seen() + missed + after.streamed == WHOLE, 'every chunk once, in order'
        assert after.states[-1] == pb.TaskState.TASK_STATE_COMPLETED, after.states
        stored = await on_a.get_task(pb.GetTaskRequest(id=task.id))
        assert chunks_of_task(stored) == WHOLE and stored.status.state == pb.TaskState.TASK_STATE_COMPLETED
        print(
            f'  [{binding}] killed B after {len(before.seen())} chunks ({before.error}); A\'s task held '
            f'{len(after.snapshot)}, A streamed {len(after.streamed)}: {SLOW_CHUNKS} of {SLOW_CHUNKS}, in order',
            flush=True,
        )

    for name, body in [
        ('send on A, get on B', get_on_b),
        ('send on A, list on B', list_on_b),
        ('send on A, cancel on B', cancel_on_b),
        ('a subscription on B follows the task A executes', subscribe_on_b),
        ('B killed mid-stream: resubscribed on A, no chunk missed', replica_killed_mid_stream),
    ]:
        await check(binding, name, body)
    for client in (on_a, on_b, streamer_a, streamer_b):
        await client.close()


class ReplicaB:
    """Asks the test to kill replica B (`KILL-B` on standard output): the test answers `killed` once
    B is dead, then `restarted` once B serves again on the same ports."""

    def __init__(self) -> None:
        self.restart_pending = False

    async def answer(self, expected: str) -> None:
        loop = asyncio.get_running_loop()
        line = await asyncio.wait_for(loop.run_in_executor(None, sys.stdin.readline), CALL_TIMEOUT)
        assert line.strip() == expected, f'the test answered {line!r}, not {expected!r}'

    async def kill(self) -> None:
        print('KILL-B', flush=True)
        self.restart_pending = True
        await self.answer('killed')

    async def back(self) -> None:
        if self.restart_pending:
            self.restart_pending = False
            await self.answer('restarted')


async def main(url_a: str, url_b: str) -> None:
    replica_b = ReplicaB()
    for binding in (TransportProtocol.JSONRPC, TransportProtocol.HTTP_JSON, TransportProtocol.GRPC):
        await replica_b.back()
        async with httpx.AsyncClient() as http:
            card_a = await A2ACardResolver(http, url_a).get_agent_card()
            card_b = await A2ACardResolver(http, url_b).get_agent_card()
        await drive(binding.value, card_a, card_b, replica_b.kill)
    await replica_b.back()


if __name__ == '__main__':
    sdk_driver.run(main, __doc__, 150)
