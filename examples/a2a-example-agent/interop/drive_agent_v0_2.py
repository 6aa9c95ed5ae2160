"""Drives the Rust example agent with the official A2A Python SDK's last v0.2 release (a2a-sdk 0.2.16),
a client that knows only A2A v0.2: its card resolver reads `/.well-known/agent.json`, and its JSON-RPC
client sends v0.2 requests without an `A2A-Version` header.

Usage: drive_agent_v0_2.py AGENT_URL

AGENT_URL is the example agent as `a2a-example-agent --listen` serves it (its resubscribe delay short).
The checks: the card (read by the SDK 0.2's pydantic model), send with a task result and with a message
result, stream, get with historyLength, cancel, resubscribe, the error TaskNotFound read back by its
JSON-RPC code, and the authenticated extended card: v0.2 GETs it at `{card.url}/../agent/
authenticatedExtendedCard` (the SDK's card resolver, given that path and the agent's default bearer
token), refused without the token. Each check prints PASS or FAIL; the last line is the count (`JSONRPC: passed/total`).
Exits 1 on any failure. Bounded: every call has a timeout, the whole run 60 s. Loopback only.
"""

import asyncio
import sys
import traceback
import uuid
from urllib.parse import urlsplit

import httpx

from a2a.client import A2ACardResolver, A2AClient, A2AClientHTTPError
from a2a.types import (
    CancelTaskRequest,
    GetTaskRequest,
    JSONRPCErrorResponse,
    Message,
    MessageSendConfiguration,
    MessageSendParams,
    Part,
    Role,
    SendMessageRequest,
    SendStreamingMessageRequest,
    Task,
    TaskArtifactUpdateEvent,
    TaskIdParams,
    TaskQueryParams,
    TaskResubscriptionRequest,
    TaskState,
    TaskStatusUpdateEvent,
    TextPart,
)

CALL_TIMEOUT = 15.0
WHOLE_RUN = 60
RESULTS: list[bool] = []
# The bearer token the example agent's extended card is behind by default.
EXTENDED_CARD_TOKEN = 'example-extended-card-token'


def record(name: str, ok: bool, detail: str = '') -> None:
    RESULTS.append(ok)
    print(f'{"PASS" if ok else "FAIL"} {name}{": " + detail if detail and not ok else ""}', flush=True)


async def check(name: str, body) -> None:
    """One check within the call timeout; an exception or a false assertion is a failure."""
    try:
        await asyncio.wait_for(body(), CALL_TIMEOUT)
        record(name, True)
    except Exception as error:  # noqa: BLE001 - every failure is reported, none stops the run
        detail = f'{type(error).__name__}: {error}'
        if not isinstance(error, AssertionError):
            detail += '\n' + traceback.format_exc(limit=3)
        record(name, False, detail)


def unique(prefix: str) -> str:
    """A messageId with the prefix that selects the agent's behaviour."""
    return f'{prefix}-{uuid.uuid4().hex[:12]}'


def params(prefix: str, blocking: bool = True) -> MessageSendParams:
    message = Message(
        message_id=unique(prefix), role=Role.user, parts=[Part(root=TextPart(text='hello from the SDK 0.2'))]
    )
    return MessageSendParams(message=message, configuration=MessageSendConfiguration(
        accepted_output_modes=[], blocking=blocking))


def extended_card_location(card_url: str) -> tuple[str, str]:
    """The origin and path of v0.2's extended card: `{card_url}/../agent/authenticatedExtendedCard`."""
    parts = urlsplit(card_url)
    parent = parts.path.rstrip('/').rsplit('/', 1)[0]
    return f'{parts.scheme}://{parts.netloc}', f'{parent}/agent/authenticatedExtendedCard'


def result_of(response):
    """The result of a response, or an AssertionError naming the JSON-RPC error."""
    root = response.root
    assert not isinstance(root, JSONRPCErrorResponse), f'error {root.error.code}: {root.error.message}'
    return root.result


async def main(agent_url: str) -> None:
    async with httpx.AsyncClient(timeout=CALL_TIMEOUT) as http:
        card = await A2ACardResolver(http, agent_url).get_agent_card()
        client = A2AClient(http, agent_card=card)

        async def card_checks():
            assert card.url == agent_url + '/jsonrpc', card.url
            assert card.capabilities.streaming, card.capabilities
            assert [s.id for s in card.skills] == ['find-hotels', 'route-planner'], [s.id for s in card.skills]

        async def send_task():
            task = result_of(await client.send_message(SendMessageRequest(id=1, params=params('tck-artifact-text'))))
            assert isinstance(task, Task), task
            assert task.status.state == TaskState.completed, task.status
            assert task.artifacts[0].parts[0].root.text == 'Generated text content', task.artifacts

        async def send_message_result():
            message = result_of(
                await client.send_message(SendMessageRequest(id=2, params=params('tck-message-response'))))
            assert isinstance(message, Message), message
            assert message.parts[0].root.text == 'Direct message response', message

        async def stream():
            request = SendStreamingMessageRequest(id=3, params=params('tck-stream-artifact-chunked'))
            events = [result_of(e) async for e in client.send_message_streaming(request)]
            kinds = [type(e).__name__ for e in events]
            assert kinds == [
                'Task', TaskStatusUpdateEvent.__name__, TaskArtifactUpdateEvent.__name__,
                TaskArtifactUpdateEvent.__name__, TaskStatusUpdateEvent.__name__,
            ], kinds
            assert events[-1].status.state == TaskState.completed and events[-1].final, events[-1]
            assert ''.join(e.artifact.parts[0].root.text for e in events[2:4]) == 'chunk-1 chunk-2', events

        async def get_with_history():
            task = result_of(await client.send_message(SendMessageRequest(id=4, params=params('tck-complete-task'))))
            got = result_of(await client.get_task(
                GetTaskRequest(id=5, params=TaskQueryParams(id=task.id, history_length=1))))
            assert got.id == task.id and got.context_id == task.context_id, got
            assert [m.parts[0].root.text for m in got.history] == ['Hello from TCK'], got.history

        async def start_task() -> Task:
            task = result_of(await client.send_message(
                SendMessageRequest(id=6, params=params('test-resubscribe-message-id', blocking=False))))
            assert task.status.state in (TaskState.submitted, TaskState.working), task.status
            return task

        async def cancel():
            task = await start_task()
            canceled = result_of(await client.cancel_task(CancelTaskRequest(id=7, params=TaskIdParams(id=task.id))))
            assert canceled.status.state == TaskState.canceled, canceled.status

        async def resubscribe():
            # The SDK 0.2's client has no resubscribe method: the same request through its own stream reader.
            task = await start_task()
            request = TaskResubscriptionRequest(id=8, params=TaskIdParams(id=task.id))
            stream = client.send_message_streaming(request)  # type: ignore[arg-type]
            events = [result_of(e) async for e in stream]
            assert events[0].id == task.id, events[0]
            assert events[-1].status.state == TaskState.completed, events[-1]

        async def task_not_found():
            response = await client.get_task(GetTaskRequest(id=9, params=TaskQueryParams(id='no-such-task')))
            assert isinstance(response.root, JSONRPCErrorResponse), response
            assert response.root.error.code == -32001, response.root.error

        origin, extended_path = extended_card_location(card.url)

        async def extended_card():
            assert card.supports_authenticated_extended_card, card
            bearer = {'headers': {'Authorization': f'Bearer {EXTENDED_CARD_TOKEN}'}}
            extended = await A2ACardResolver(http, origin).get_agent_card(extended_path, bearer)
            assert len(extended.skills) == len(card.skills) + 1, [s.id for s in extended.skills]
            assert extended.documentation_url == 'https://a2a-protocol.org/', extended.documentation_url

        async def extended_card_refused():
            try:
                await A2ACardResolver(http, origin).get_agent_card(extended_path)
            except A2AClientHTTPError as error:
                assert error.status_code == 401, error
            else:
                raise AssertionError('the extended card was served without credentials')

        checks = [
            ('the v0.2 card at /.well-known/agent.json', card_checks), ('send (task result)', send_task),
            ('send (message result)', send_message_result), ('stream', stream),
            ('get with historyLength', get_with_history), ('cancel', cancel), ('resubscribe', resubscribe),
            ('error TaskNotFound', task_not_found),
            ('the extended card by GET with the bearer token', extended_card),
            ('the extended card refused without credentials', extended_card_refused),
        ]
        for name, body in checks:
            await check(name, body)


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        asyncio.run(asyncio.wait_for(main(sys.argv[1].rstrip('/')), WHOLE_RUN))
    except TimeoutError:
        record(f'finished within {WHOLE_RUN} s', False)
    print()
    print(f'JSONRPC: {sum(RESULTS)}/{len(RESULTS)} passed')
    sys.exit(0 if all(RESULTS) else 1)
