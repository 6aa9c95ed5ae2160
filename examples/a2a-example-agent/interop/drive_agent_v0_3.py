"""Drives the Rust example agent with the official A2A Python SDK 0.3.x's client (a2a-sdk 0.3.26), a
client that knows nothing of A2A v1: it finds the agent from its card alone.

Usage: drive_agent_v0_3.py AGENT_URL

AGENT_URL is the example agent as `a2a-example-agent --listen` serves it (its resubscribe delay short).
The SDK's card resolver fetches the well-known card (without an `A2A-Version` header, as a v0.3 client
does), and the SDK's client factory picks the transport the card names for v0.3. Then, over each
binding the SDK 0.3 speaks (JSON-RPC, HTTP+JSON, gRPC): when the card offers it for v0.3, the calls
(send with a task and with a message result, stream, get, cancel, resubscribe, and the errors
TaskNotFound, TaskNotCancelable, UnsupportedOperation, ContentTypeNotSupported, each as the binding
carries it: a JSON-RPC code, the SDK's HTTP status, a gRPC status naming the v0.3 error); when it does
not, the factory's refusal to pick it is recorded as `not offered`, not as a failure. Each check prints PASS
or FAIL; the last lines are the pass counts per binding (`binding: passed/total`). Exits 1 on any
failure. Bounded: every call has a timeout, the whole run 120 s. Loopback only.
"""

import asyncio
import sys
import traceback
import uuid

import grpc
import httpx

from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.client.errors import A2AClientHTTPError, A2AClientJSONRPCError
from a2a.types import (
    Message,
    MessageSendConfiguration,
    Part,
    Role,
    Task,
    TaskArtifactUpdateEvent,
    TaskIdParams,
    TaskQueryParams,
    TaskState,
    TaskStatusUpdateEvent,
    TextPart,
    TransportProtocol,
)

CALL_TIMEOUT = 15.0
WHOLE_RUN = 120
RESULTS: dict[str, list[bool]] = {}


def record(binding: str, name: str, ok: bool, detail: str = '') -> None:
    RESULTS.setdefault(binding, []).append(ok)
    print(f'{"PASS" if ok else "FAIL"} [{binding}] {name}{": " + detail if detail and not ok else ""}', flush=True)


async def check(binding: str, name: str, body) -> None:
    """One check within the call timeout; an exception or a false assertion is a failure."""
    try:
        await asyncio.wait_for(body(), CALL_TIMEOUT)
        record(binding, name, True)
    except Exception as error:  # noqa: BLE001 - every failure is reported, none stops the run
        detail = f'{type(error).__name__}: {error}'
        if not isinstance(error, AssertionError):
            detail += '\n' + traceback.format_exc(limit=3)
        record(binding, name, False, detail)


def unique(prefix: str) -> str:
    """A messageId with the prefix that selects the agent's behaviour."""
    return f'{prefix}-{uuid.uuid4().hex[:12]}'


def user_message(message_id: str, text: str = 'hello from the SDK 0.3') -> Message:
    return Message(message_id=message_id, role=Role.user, parts=[Part(root=TextPart(text=text))])


# How the SDK 0.3's own servers answer each error on HTTP+JSON (its HTTP status) and gRPC (the status
# code, and the v0.3 error's type name before the message), which is what its clients then raise.
HTTP_STATUS = {-32001: 404, -32002: 409, -32004: 501, -32005: 415}
GRPC_STATUS = {
    -32001: (grpc.StatusCode.NOT_FOUND, 'TaskNotFoundError'),
    -32002: (grpc.StatusCode.UNIMPLEMENTED, 'TaskNotCancelableError'),
    -32004: (grpc.StatusCode.UNIMPLEMENTED, 'UnsupportedOperationError'),
    -32005: (grpc.StatusCode.UNIMPLEMENTED, 'ContentTypeNotSupportedError'),
}


async def expect_code(binding: str, call, code: int) -> None:
    """Awaits `call()` (a coroutine or an async iterator), which must fail with the error of this JSON-RPC
    code as `binding` carries it: the code on JSON-RPC, the SDK's status on HTTP+JSON, the status code
    and the error's type name on gRPC."""
    try:
        result = call()
        if hasattr(result, '__aiter__'):
            async for _ in result:
                pass
        else:
            await result
    except A2AClientJSONRPCError as error:
        assert binding == 'JSONRPC', f'a JSON-RPC error over {binding}'
        assert error.error.code == code, f'expected {code}, got {error.error.code}: {error.error.message}'
        return
    except A2AClientHTTPError as error:
        assert binding == 'HTTP+JSON', f'an HTTP error over {binding}: {error}'
        assert error.status_code == HTTP_STATUS[code], f'expected HTTP {HTTP_STATUS[code]} for {code}, got {error}'
        return
    except grpc.aio.AioRpcError as error:
        expected_code, name = GRPC_STATUS[code]
        assert binding == 'GRPC', f'a gRPC error over {binding}'
        assert error.code() == expected_code, f'expected {expected_code} for {code}, got {error.code()}: {error.details()}'
        assert error.details().startswith(name + ': '), f'expected {name}: ..., got {error.details()}'
        return
    except Exception as error:  # noqa: BLE001
        raise AssertionError(f'expected error {code}, the SDK raised {type(error).__name__}: {error}') from error
    raise AssertionError(f'expected error {code}, the call succeeded')


async def one_result(client, message: Message, configuration: MessageSendConfiguration | None = None):
    """The last thing a send yields: a Message, or the task of the last (task, update) event."""
    last = None
    async for event in client.send_message(message, configuration=configuration):
        last = event
    assert last is not None, 'the send yielded nothing'
    return last if isinstance(last, Message) else last[0]


def make_client(card, binding: str, streaming: bool):
    """The SDK's client of `card` over `binding` only (gRPC in plain text, on loopback), with an HTTP
    client of its own, which closing it closes."""
    config = ClientConfig(
        streaming=streaming,
        httpx_client=httpx.AsyncClient(timeout=CALL_TIMEOUT),
        supported_transports=[binding],
        grpc_channel_factory=lambda url: grpc.aio.insecure_channel(url),
    )
    return ClientFactory(config).create(card)


async def drive(card, binding: str) -> None:
    client = make_client(card, binding, streaming=False)
    streamer = make_client(card, binding, streaming=True)

    async def send_task():
        task = await one_result(client, user_message(unique('tck-artifact-text')))
        assert isinstance(task, Task), task
        assert task.status.state == TaskState.completed, task.status
        assert task.artifacts[0].parts[0].root.text == 'Generated text content', task.artifacts

    async def send_message_result():
        message = await one_result(client, user_message(unique('tck-message-response')))
        assert isinstance(message, Message), message
        assert message.parts[0].root.text == 'Direct message response', message

    async def stream():
        events = [e async for e in streamer.send_message(user_message(unique('tck-stream-artifact-chunked')))]
        kinds = [type(update).__name__ if update is not None else 'Task' for _, update in events]
        assert kinds == [
            'Task', TaskStatusUpdateEvent.__name__, TaskArtifactUpdateEvent.__name__,
            TaskArtifactUpdateEvent.__name__, TaskStatusUpdateEvent.__name__,
        ], kinds
        task = events[-1][0]
        assert task.status.state == TaskState.completed, task.status
        assert ''.join(p.root.text for p in task.artifacts[0].parts) == 'chunk-1 chunk-2', task.artifacts

    async def get_with_history():
        task = await one_result(client, user_message(unique('tck-complete-task')))
        got = await client.get_task(TaskQueryParams(id=task.id, history_length=1))
        assert got.id == task.id
        assert [m.parts[0].root.text for m in got.history] == ['Hello from TCK'], got.history

    async def start_task() -> Task:
        no_wait = MessageSendConfiguration(blocking=False)
        task = await one_result(client, user_message(unique('test-resubscribe-message-id')), no_wait)
        assert task.status.state in (TaskState.submitted, TaskState.working), task.status
        return task

    async def cancel():
        task = await start_task()
        canceled = await client.cancel_task(TaskIdParams(id=task.id))
        assert canceled.status.state == TaskState.canceled, canceled.status

    async def resubscribe():
        task = await start_task()
        events = [e async for e in streamer.resubscribe(TaskIdParams(id=task.id))]
        assert events[0][0].id == task.id, events[0]
        assert events[-1][0].status.state == TaskState.completed, events[-1][0].status

    async def task_not_found():
        await expect_code(binding, lambda: client.get_task(TaskQueryParams(id='no-such-task')), -32001)

    async def task_not_cancelable():
        task = await one_result(client, user_message(unique('tck-complete-task')))
        await expect_code(binding, lambda: client.cancel_task(TaskIdParams(id=task.id)), -32002)

    async def unsupported_operation():
        task = await one_result(client, user_message(unique('tck-complete-task')))
        if binding != 'HTTP+JSON':
            await expect_code(binding, lambda: streamer.resubscribe(TaskIdParams(id=task.id)), -32004)
            return
        # The SDK 0.3's HTTP+JSON resubscribe reads the answer as events without checking its status
        # first, so any error answer reaches its caller as "HTTP 400: Invalid SSE response": check that
        # it fails so, and read the agent's answer itself (the SDK's status, and the code) directly.
        try:
            async for _ in streamer.resubscribe(TaskIdParams(id=task.id)):
                pass
            raise AssertionError('expected an error, the resubscribe succeeded')
        except A2AClientHTTPError as error:
            assert error.status_code == 400 and 'Invalid SSE' in str(error), error
        url = card_interface_url(card, binding) + f'/v1/tasks/{task.id}:subscribe'
        async with httpx.AsyncClient(timeout=CALL_TIMEOUT) as http:
            answer = await http.get(url)
        assert answer.status_code == HTTP_STATUS[-32004], (answer.status_code, answer.text)
        assert answer.json()['code'] == -32004, answer.text

    async def content_type_not_supported():
        video_only = MessageSendConfiguration(accepted_output_modes=['video/mp4'])
        await expect_code(binding, lambda: one_result(client, user_message(unique('m')), video_only), -32005)

    checks = [
        ('send (task result)', send_task), ('send (message result)', send_message_result),
        ('stream', stream), ('get with historyLength', get_with_history), ('cancel', cancel),
        ('resubscribe', resubscribe), ('error TaskNotFound', task_not_found),
        ('error TaskNotCancelable', task_not_cancelable), ('error UnsupportedOperation', unsupported_operation),
        ('error ContentTypeNotSupported', content_type_not_supported),
    ]
    for name, body in checks:
        await check(binding, name, body)
    await client.close()
    await streamer.close()


def card_interface_url(card, binding: str) -> str:
    """The URL the v0.3 card gives `binding`."""
    if card.preferred_transport == binding:
        return card.url
    return next(i.url for i in (card.additional_interfaces or []) if i.transport == binding)


def offers(card, binding: str) -> bool:
    """Whether the v0.3 card names `binding` (its main interface or an additional one)."""
    return card.preferred_transport == binding or any(
        i.transport == binding for i in (card.additional_interfaces or [])
    )


async def main(agent_url: str) -> None:
    async with httpx.AsyncClient(timeout=CALL_TIMEOUT) as http:
        card = await A2ACardResolver(http, agent_url).get_agent_card()

        async def card_checks():
            assert card.url == agent_url + '/jsonrpc', card.url
            assert card.preferred_transport == TransportProtocol.jsonrpc, card.preferred_transport
            assert card.protocol_version.startswith('0.3'), card.protocol_version
            assert card.capabilities.streaming, card.capabilities
            assert [s.id for s in card.skills] == ['find-hotels', 'route-planner'], [s.id for s in card.skills]

        async def factory_follows_the_card():
            # ClientFactory.connect resolves the card itself and picks the card's preferred transport.
            own_http = httpx.AsyncClient(timeout=CALL_TIMEOUT)
            client = await ClientFactory.connect(agent_url, ClientConfig(httpx_client=own_http, streaming=False))
            assert type(client._transport).__name__ == 'JsonRpcTransport', type(client._transport)  # noqa: SLF001
            task = await one_result(client, user_message(unique('tck-complete-task')))
            assert task.status.state == TaskState.completed, task.status
            await client.close()

        await check('card', 'the v0.3 card: url, preferredTransport, protocolVersion, skills', card_checks)
        await check('card', 'the client factory connects from the URL alone', factory_follows_the_card)
        for binding in (TransportProtocol.jsonrpc, TransportProtocol.http_json, TransportProtocol.grpc):
            if offers(card, binding.value):
                await drive(card, binding.value)
            else:
                try:
                    make_client(card, binding.value, streaming=False)
                    record(binding.value, 'a binding the card does not offer is not picked', False,
                           'the factory made a client anyway')
                except ValueError as refusal:
                    print(f'not offered [{binding.value}]: the card names no v0.3 {binding.value} interface ({refusal})')


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        asyncio.run(asyncio.wait_for(main(sys.argv[1].rstrip('/')), WHOLE_RUN))
    except TimeoutError:
        record('run', f'finished within {WHOLE_RUN} s', False)
    print()
    failed = 0
    for binding, results in RESULTS.items():
        failed += results.count(False)
        print(f'{binding}: {sum(results)}/{len(results)} passed')
    sys.exit(1 if failed else 0)
