"""Drives the Rust example agent with the official A2A Python SDK's client (a2a-sdk 1.3.0).

Usage: drive_agent.py AGENT_URL MINIMAL_AGENT_URL

AGENT_URL is the example agent as `a2a-example-agent --listen` serves it (its resubscribe delay
short); MINIMAL_AGENT_URL an instance with push notifications off, no extended card configured and
one required extension (`Config` in the crate), which provokes the errors the first one never gives.

Every check goes through the SDK's own client over one binding (JSON-RPC, HTTP+JSON, gRPC), then
the SDK's v0.3 compatibility client over JSON-RPC. Each prints PASS or FAIL; the last lines are the
pass counts per binding (`binding: passed/total`). Exits 1 on any failure. Bounded: every call has a
timeout, the whole run 120 s. Loopback only: the webhook receiver listens on 127.0.0.1.
"""

import asyncio
import base64
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
from google.protobuf import json_format

from a2a.client import A2ACardResolver
from a2a.client.client import ClientCallContext
from a2a.server.request_handlers.response_helpers import agent_card_to_dict
from a2a.types import a2a_pb2 as pb
from a2a.utils import errors as sdk_errors
from a2a.utils.constants import TransportProtocol

import sdk_driver

EXTENDED_CARD_TOKEN = 'example-extended-card-token'
REQUIRED_EXTENSION = 'https://example.com/extensions/required/v1'
CALL_TIMEOUT = 15.0

async def check(binding: str, name: str, body) -> None:
    """One check, within this script's call timeout."""
    await sdk_driver.check(binding, name, body, CALL_TIMEOUT)


async def expect_error(call, error_type) -> Exception:
    """Awaits `call()` and returns the exception, which must be an `error_type` as the SDK raises it."""
    try:
        result = call()
        if hasattr(result, '__aiter__'):
            async for _ in result:
                pass
        else:
            await result
    except error_type as error:
        return error
    except Exception as error:  # noqa: BLE001
        raise AssertionError(f'expected {error_type.__name__}, the SDK raised {type(error).__name__}: {error}') from error
    raise AssertionError(f'expected {error_type.__name__}, the call succeeded')


class Webhook:
    """A loopback HTTP server that records every POST (path, headers, JSON body)."""

    def __init__(self) -> None:
        received = self.received = []
        lock = self.lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get('Content-Length', '0'))
                body = self.rfile.read(length)
                with lock:
                    received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, json.loads(body or b'null')))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f'http://127.0.0.1:{self.server.server_address[1]}'

    def deliveries(self, path: str) -> list:
        with self.lock:
            return [(h, b) for p, h, b in self.received if p == path]

    def close(self) -> None:
        self.server.shutdown()


def user_message(message_id: str, text: str = 'hello', **fields) -> pb.Message:
    return pb.Message(message_id=message_id, role=pb.Role.ROLE_USER, parts=[pb.Part(text=text)], **fields)


def unique(prefix: str) -> str:
    return f'{prefix}-{time.monotonic_ns()}'


async def send_one(client, request: pb.SendMessageRequest, context=None) -> pb.StreamResponse:
    events = [e async for e in client.send_message(request, context=context)]
    assert len(events) == 1, f'a non-streaming send yields one response, not {len(events)}'
    return events[0]


async def start_task(client, message_id: str, **message_fields) -> pb.Task:
    """Sends a message with returnImmediately and returns the task as it stands."""
    request = pb.SendMessageRequest(
        message=user_message(message_id, **message_fields),
        configuration=pb.SendMessageConfiguration(return_immediately=True),
    )
    response = await send_one(client, request)
    assert response.HasField('task'), response
    return response.task


async def drive_v1(binding: str, card: pb.AgentCard, minimal_card: pb.AgentCard, webhook: Webhook, created: dict) -> None:
    client = sdk_driver.make_client(card, binding, streaming=False)
    streamer = sdk_driver.make_client(card, binding, streaming=True)
    minimal = sdk_driver.make_client(minimal_card, binding, streaming=False)
    with_extension = ClientCallContext(service_parameters={'A2A-Extensions': REQUIRED_EXTENSION})

    async def send_task():
        response = await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-artifact-text'))))
        task = response.task
        assert task.status.state == pb.TaskState.TASK_STATE_COMPLETED, task.status
        assert [p.text for p in task.artifacts[0].parts] == ['Generated text content'], task.artifacts
        created[binding] = task.id

    async def send_artifacts():
        file_task = (await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-artifact-file'))))).task
        part = file_task.artifacts[0].parts[0]
        assert (part.raw, part.filename, part.media_type) == (b'Generated file content', 'output.txt', 'text/plain'), part
        url_task = (await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-artifact-file-url'))))).task
        part = url_task.artifacts[0].parts[0]
        assert (part.url, part.filename, part.media_type) == ('https://example.com/output.txt', 'output.txt', 'text/plain'), part
        data_task = (await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-artifact-data'))))).task
        data = json_format.MessageToDict(data_task.artifacts[0].parts[0].data)
        assert data == {'key': 'value', 'count': 42}, data

    async def send_message_result():
        response = await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-message-response'))))
        assert response.HasField('message'), response
        assert [p.text for p in response.message.parts] == ['Direct message response']
        assert response.message.role == pb.Role.ROLE_AGENT

    async def send_states():
        rejected = (await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-reject-task'))))).task
        assert rejected.status.state == pb.TaskState.TASK_STATE_REJECTED, rejected.status
        assert rejected.status.message.parts[0].text == 'rejected'
        waiting = (await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-input-required'))))).task
        assert waiting.status.state == pb.TaskState.TASK_STATE_INPUT_REQUIRED, waiting.status
        follow_up = user_message(unique('follow-up'), 'Two adults', task_id=waiting.id, context_id=waiting.context_id)
        done = (await send_one(client, pb.SendMessageRequest(message=follow_up))).task
        assert done.id == waiting.id and done.status.state == pb.TaskState.TASK_STATE_COMPLETED, done.status

    async def send_travel():
        task = (await send_one(client, pb.SendMessageRequest(message=user_message(unique('m'), 'Find a hotel in Lisbon')))).task
        assert task.status.state == pb.TaskState.TASK_STATE_COMPLETED
        assert task.artifacts[0].parts[0].text == 'Understood: Find a hotel in Lisbon', task.artifacts

    async def stream():
        events = [e async for e in streamer.send_message(pb.SendMessageRequest(message=user_message(unique('tck-stream-artifact-chunked'))))]
        kinds = [e.WhichOneof('payload') for e in events]
        assert kinds == ['task', 'status_update', 'artifact_update', 'artifact_update', 'status_update'], kinds
        chunks = [(e.artifact_update.artifact.parts[0].text, e.artifact_update.append, e.artifact_update.last_chunk) for e in events[2:4]]
        assert chunks == [('chunk-1 ', False, False), ('chunk-2', True, True)], chunks
        assert events[-1].status_update.status.state == pb.TaskState.TASK_STATE_COMPLETED
        for message_id, text in [('tck-stream-001', 'Stream hello from TCK'), ('tck-stream-ordering-001', 'Ordered output')]:
            events = [e async for e in streamer.send_message(pb.SendMessageRequest(message=user_message(unique(message_id))))]
            texts = [e.artifact_update.artifact.parts[0].text for e in events if e.HasField('artifact_update')]
            assert texts == [text], texts
        events = [e async for e in streamer.send_message(pb.SendMessageRequest(message=user_message(unique('tck-stream-002'))))]
        assert events[-1].status_update.status.state == pb.TaskState.TASK_STATE_COMPLETED, events
        events = [e async for e in streamer.send_message(pb.SendMessageRequest(message=user_message(unique('tck-message-response'))))]
        assert [e.WhichOneof('payload') for e in events] == ['message'], events

    async def get_with_history():
        task = (await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-complete-task'))))).task
        full = await client.get_task(pb.GetTaskRequest(id=task.id))
        assert len(full.history) == 2, full.history
        last = await client.get_task(pb.GetTaskRequest(id=task.id, history_length=1))
        assert [m.parts[0].text for m in last.history] == ['Hello from TCK'], last.history
        none = await client.get_task(pb.GetTaskRequest(id=task.id, history_length=0))
        assert len(none.history) == 0, none.history

    async def list_tasks():
        context_id = unique(f'ctx-list-{binding}')
        ids = set()
        for _ in range(3):
            task = (await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-artifact-text'), context_id=context_id)))).task
            ids.add(task.id)
        first = await client.list_tasks(pb.ListTasksRequest(context_id=context_id, page_size=2))
        assert (len(first.tasks), first.total_size, first.page_size) == (2, 3, 2), first
        assert first.next_page_token, 'a first page of two out of three has a next page token'
        assert all(len(t.artifacts) == 0 for t in first.tasks), 'artifacts are left out unless asked for'
        second = await client.list_tasks(pb.ListTasksRequest(context_id=context_id, page_size=2, page_token=first.next_page_token, include_artifacts=True))
        assert len(second.tasks) == 1 and second.next_page_token == '', second
        assert len(second.tasks[0].artifacts) == 1
        assert {t.id for t in first.tasks} | {second.tasks[0].id} == ids
        times = [t.status.timestamp.ToNanoseconds() for t in list(first.tasks) + list(second.tasks)]
        assert times == sorted(times, reverse=True), 'newest status first'
        completed = await client.list_tasks(pb.ListTasksRequest(context_id=context_id, status=pb.TaskState.TASK_STATE_COMPLETED))
        assert completed.total_size == 3
        working = await client.list_tasks(pb.ListTasksRequest(context_id=context_id, status=pb.TaskState.TASK_STATE_WORKING))
        assert working.total_size == 0 and len(working.tasks) == 0
        trimmed = await client.list_tasks(pb.ListTasksRequest(context_id=context_id, history_length=0))
        assert all(len(t.history) == 0 for t in trimmed.tasks)

    async def cancel():
        task = await start_task(client, unique('test-resubscribe-message-id'))
        canceled = await client.cancel_task(pb.CancelTaskRequest(id=task.id))
        assert canceled.status.state == pb.TaskState.TASK_STATE_CANCELED, canceled.status
        again = await client.get_task(pb.GetTaskRequest(id=task.id))
        assert again.status.state == pb.TaskState.TASK_STATE_CANCELED

    async def subscribe():
        task = await start_task(client, unique('test-resubscribe-message-id'))
        events = [e async for e in streamer.subscribe(pb.SubscribeToTaskRequest(id=task.id))]
        assert events[0].HasField('task') and events[0].task.id == task.id, events[0]
        assert events[-1].status_update.status.state == pb.TaskState.TASK_STATE_COMPLETED, events[-1]

    async def push_configs():
        task = await start_task(client, unique('test-resubscribe-message-id'))
        path = f'/hook/{binding}/{task.id}'
        token = unique('token')
        config = pb.TaskPushNotificationConfig(task_id=task.id, id='hook-1', url=webhook.url + path, token=token)
        created_config = await client.create_task_push_notification_config(config)
        assert (created_config.id, created_config.url, created_config.token) == ('hook-1', config.url, token), created_config
        got = await client.get_task_push_notification_config(pb.GetTaskPushNotificationConfigRequest(task_id=task.id, id='hook-1'))
        assert got.url == config.url
        listed = await client.list_task_push_notification_configs(pb.ListTaskPushNotificationConfigsRequest(task_id=task.id))
        assert [c.id for c in listed.configs] == ['hook-1'], listed
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            deliveries = webhook.deliveries(path)
            if any(b.get('statusUpdate', {}).get('status', {}).get('state') == 'TASK_STATE_COMPLETED' for _, b in deliveries):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f'no completed status reached the webhook within 10 s: {webhook.deliveries(path)}')
        for headers, body in deliveries:
            assert headers.get('x-a2a-notification-token') == token, headers
            parsed = json_format.ParseDict(body, pb.StreamResponse())
            assert parsed.status_update.task_id == task.id, body
        await client.delete_task_push_notification_config(pb.DeleteTaskPushNotificationConfigRequest(task_id=task.id, id='hook-1'))
        listed = await client.list_task_push_notification_configs(pb.ListTaskPushNotificationConfigsRequest(task_id=task.id))
        assert len(listed.configs) == 0, listed

    async def extended_card():
        bearer = ClientCallContext(service_parameters={'Authorization': f'Bearer {EXTENDED_CARD_TOKEN}'})
        # A fresh client each time: the SDK's client replaces its card with the extended one.
        authorized = sdk_driver.make_client(card, binding, streaming=False)
        extended = await authorized.get_extended_agent_card(pb.GetExtendedAgentCardRequest(), context=bearer)
        await authorized.close()
        assert [s.id for s in extended.skills] == ['find-hotels', 'route-planner', 'book-room'], [s.id for s in extended.skills]
        anonymous = sdk_driver.make_client(card, binding, streaming=False)
        try:
            await anonymous.get_extended_agent_card(pb.GetExtendedAgentCardRequest())
        except Exception:  # noqa: BLE001 - the SDK reports an HTTP 401 or UNAUTHENTICATED in its own way
            pass
        else:
            raise AssertionError('the extended card was served without the token')
        finally:
            await anonymous.close()

    async def cross_binding():
        for other, task_id in list(created.items()):
            task = await client.get_task(pb.GetTaskRequest(id=task_id))
            assert task.id == task_id, f'a task created over {other} reads back over {binding}'
        assert len(created) >= 1

    checks = [
        ('send (task result)', send_task), ('send (file, URL and data artifacts)', send_artifacts),
        ('send (message result)', send_message_result), ('send (rejected, input-required, follow-up)', send_states),
        ('send (travel skills)', send_travel), ('stream', stream), ('get with historyLength', get_with_history),
        ('list (filters, paging)', list_tasks), ('cancel', cancel), ('subscribe', subscribe),
        ('push-config CRUD with a webhook delivery', push_configs), ('extended card', extended_card),
        ('one store for every binding', cross_binding),
    ]
    for name, body in checks:
        await check(binding, name, body)

    # One case per A2A error, as the SDK's client raises it.
    async def completed_task() -> pb.Task:
        return (await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-complete-task'))))).task

    async def task_not_found():
        await expect_error(lambda: client.get_task(pb.GetTaskRequest(id='no-such-task')), sdk_errors.TaskNotFoundError)

    async def task_not_cancelable():
        task = await completed_task()
        await expect_error(lambda: client.cancel_task(pb.CancelTaskRequest(id=task.id)), sdk_errors.TaskNotCancelableError)

    async def unsupported_operation():
        task = await completed_task()
        await expect_error(lambda: streamer.subscribe(pb.SubscribeToTaskRequest(id=task.id)), sdk_errors.UnsupportedOperationError)

    async def content_type_not_supported():
        request = pb.SendMessageRequest(
            message=user_message(unique('m')), configuration=pb.SendMessageConfiguration(accepted_output_modes=['video/mp4'])
        )
        await expect_error(lambda: send_one(client, request), sdk_errors.ContentTypeNotSupportedError)

    async def invalid_params():
        error = await expect_error(lambda: client.list_tasks(pb.ListTasksRequest(page_size=500)), sdk_errors.InvalidParamsError)
        assert 'pageSize' in str(error), error
        if binding != TransportProtocol.HTTP_JSON.value:  # an empty id leaves HTTP+JSON's path without a route
            error = await expect_error(lambda: client.get_task(pb.GetTaskRequest(id='')), sdk_errors.InvalidParamsError)
            assert 'id' in str(error), error

    async def version_not_supported():
        future = ClientCallContext(service_parameters={'A2A-Version': '9.0'})
        await expect_error(lambda: client.get_task(pb.GetTaskRequest(id='x'), context=future), sdk_errors.VersionNotSupportedError)

    async def push_not_supported():
        config = pb.TaskPushNotificationConfig(task_id='x', url=webhook.url + '/never')
        await expect_error(
            lambda: minimal.create_task_push_notification_config(config, context=with_extension),
            sdk_errors.PushNotificationNotSupportedError,
        )

    async def extended_card_not_configured():
        await expect_error(
            lambda: minimal.get_extended_agent_card(pb.GetExtendedAgentCardRequest(), context=with_extension),
            sdk_errors.ExtendedAgentCardNotConfiguredError,
        )

    async def extension_required():
        await expect_error(lambda: minimal.get_task(pb.GetTaskRequest(id='x')), sdk_errors.ExtensionSupportRequiredError)

    errors = [
        ('error TaskNotFound', task_not_found), ('error TaskNotCancelable', task_not_cancelable),
        ('error UnsupportedOperation', unsupported_operation), ('error ContentTypeNotSupported', content_type_not_supported),
        ('error InvalidParams', invalid_params), ('error VersionNotSupported', version_not_supported),
        ('error PushNotificationNotSupported', push_not_supported),
        ('error ExtendedAgentCardNotConfigured', extended_card_not_configured),
        ('error ExtensionSupportRequired', extension_required),
    ]
    for name, body in errors:
        await check(binding, name, body)
    for c in (client, streamer, minimal):
        await c.close()


async def drive_jsonrpc_envelope_errors(card: pb.AgentCard) -> None:
    """The three errors only the JSON-RPC envelope has: sent raw (the SDK's client cannot send them),
    the answer read by the SDK's own JSON-RPC transport."""
    client = sdk_driver.make_client(card, TransportProtocol.JSONRPC, streaming=False)
    transport = client._transport  # noqa: SLF001 - its error reading is what is checked
    url = next(i.url for i in card.supported_interfaces if i.protocol_binding == 'JSONRPC' and i.protocol_version == '1.0')
    cases = [
        ('error JSONParse', b'{"jsonrpc": "2.0", "id": 1, "method": ', sdk_errors.JSONParseError),
        ('error InvalidRequest', json.dumps({'jsonrpc': '1.0', 'id': 2, 'method': 'GetTask', 'params': {'id': 'x'}}).encode(), sdk_errors.InvalidRequestError),
        ('error MethodNotFound', json.dumps({'jsonrpc': '2.0', 'id': 3, 'method': 'GetWeather', 'params': {}}).encode(), sdk_errors.MethodNotFoundError),
    ]
    async with httpx.AsyncClient(headers={'A2A-Version': '1.0', 'Content-Type': 'application/json'}) as http:
        for name, body, expected in cases:
            async def run(body=body, expected=expected):
                response = (await http.post(url, content=body)).json()
                error = transport._create_jsonrpc_error(response['error'])  # noqa: SLF001
                assert isinstance(error, expected), f'the SDK reads {response["error"]} as {error!r}, not {expected.__name__}'
            await check('JSONRPC', name, run)
    await client.close()


async def drive_v0_3(card: pb.AgentCard, minimal_card: pb.AgentCard, webhook: Webhook, created: dict) -> None:
    """The SDK's v0.3 compatibility client (CompatJsonRpcTransport) over the same JSON-RPC endpoint."""
    binding = 'JSONRPC v0.3'
    legacy = pb.AgentCard()
    legacy.CopyFrom(card)
    del legacy.supported_interfaces[:]
    legacy.supported_interfaces.extend(i for i in card.supported_interfaces if i.protocol_version == '0.3')
    client = sdk_driver.make_client(legacy, TransportProtocol.JSONRPC, streaming=False)
    streamer = sdk_driver.make_client(legacy, TransportProtocol.JSONRPC, streaming=True)

    async def transport_is_v0_3():
        name = type(client._transport).__name__  # noqa: SLF001 - which transport the factory chose is the point
        assert name == 'CompatJsonRpcTransport', name

    async def send_task():
        task = (await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-artifact-text'))))).task
        assert task.status.state == pb.TaskState.TASK_STATE_COMPLETED, task.status
        assert task.artifacts[0].parts[0].text == 'Generated text content'
        created[binding] = task.id

    async def send_message_result():
        response = await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-message-response'))))
        assert response.message.parts[0].text == 'Direct message response', response

    async def stream():
        events = [e async for e in streamer.send_message(pb.SendMessageRequest(message=user_message(unique('tck-stream-artifact-chunked'))))]
        kinds = [e.WhichOneof('payload') for e in events]
        assert kinds == ['task', 'status_update', 'artifact_update', 'artifact_update', 'status_update'], kinds
        assert events[-1].status_update.status.state == pb.TaskState.TASK_STATE_COMPLETED

    async def get_with_history():
        task = (await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-complete-task'))))).task
        last = await client.get_task(pb.GetTaskRequest(id=task.id, history_length=1))
        assert [m.parts[0].text for m in last.history] == ['Hello from TCK'], last.history

    async def list_unsupported():
        await expect_error(lambda: client.list_tasks(pb.ListTasksRequest()), NotImplementedError)

    async def cancel():
        task = await start_task(client, unique('test-resubscribe-message-id'))
        canceled = await client.cancel_task(pb.CancelTaskRequest(id=task.id))
        assert canceled.status.state == pb.TaskState.TASK_STATE_CANCELED, canceled.status

    async def subscribe():
        task = await start_task(client, unique('test-resubscribe-message-id'))
        events = [e async for e in streamer.subscribe(pb.SubscribeToTaskRequest(id=task.id))]
        assert events[0].task.id == task.id, events[0]
        assert events[-1].status_update.status.state == pb.TaskState.TASK_STATE_COMPLETED, events[-1]

    async def push_configs():
        task = await start_task(client, unique('test-resubscribe-message-id'))
        path = f'/hook/v0_3/{task.id}'
        config = pb.TaskPushNotificationConfig(task_id=task.id, id='hook-1', url=webhook.url + path, token='tok-v03')
        await client.create_task_push_notification_config(config)
        got = await client.get_task_push_notification_config(pb.GetTaskPushNotificationConfigRequest(task_id=task.id, id='hook-1'))
        assert got.url == config.url, got
        listed = await client.list_task_push_notification_configs(pb.ListTaskPushNotificationConfigsRequest(task_id=task.id))
        assert [c.id for c in listed.configs] == ['hook-1'], listed
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if any(b.get('statusUpdate', {}).get('status', {}).get('state') == 'TASK_STATE_COMPLETED' for _, b in webhook.deliveries(path)):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError('no completed status reached the webhook within 10 s')
        assert all(h.get('x-a2a-notification-token') == 'tok-v03' for h, _ in webhook.deliveries(path))
        await client.delete_task_push_notification_config(pb.DeleteTaskPushNotificationConfigRequest(task_id=task.id, id='hook-1'))
        listed = await client.list_task_push_notification_configs(pb.ListTaskPushNotificationConfigsRequest(task_id=task.id))
        assert len(listed.configs) == 0, listed

    async def extended_card():
        bearer = ClientCallContext(service_parameters={'Authorization': f'Bearer {EXTENDED_CARD_TOKEN}'})
        extended = await client.get_extended_agent_card(pb.GetExtendedAgentCardRequest(), context=bearer)
        assert 'book-room' in [s.id for s in extended.skills], [s.id for s in extended.skills]

    async def cross_binding():
        for other, task_id in list(created.items()):
            task = await client.get_task(pb.GetTaskRequest(id=task_id))
            assert task.id == task_id, f'a task created over {other} reads back over v0.3'

    async def task_not_found():
        await expect_error(lambda: client.get_task(pb.GetTaskRequest(id='no-such-task')), sdk_errors.TaskNotFoundError)

    async def task_not_cancelable():
        task = (await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-complete-task'))))).task
        await expect_error(lambda: client.cancel_task(pb.CancelTaskRequest(id=task.id)), sdk_errors.TaskNotCancelableError)

    async def unsupported_operation():
        task = (await send_one(client, pb.SendMessageRequest(message=user_message(unique('tck-complete-task'))))).task
        await expect_error(lambda: streamer.subscribe(pb.SubscribeToTaskRequest(id=task.id)), sdk_errors.UnsupportedOperationError)

    async def content_type_not_supported():
        request = pb.SendMessageRequest(
            message=user_message(unique('m')), configuration=pb.SendMessageConfiguration(accepted_output_modes=['video/mp4'])
        )
        await expect_error(lambda: send_one(client, request), sdk_errors.ContentTypeNotSupportedError)

    async def invalid_params():
        await expect_error(lambda: client.get_task(pb.GetTaskRequest(id='')), sdk_errors.InvalidParamsError)

    async def push_not_supported():
        minimal_legacy = pb.AgentCard()
        minimal_legacy.CopyFrom(minimal_card)
        del minimal_legacy.supported_interfaces[:]
        minimal_legacy.supported_interfaces.extend(i for i in minimal_card.supported_interfaces if i.protocol_version == '0.3')
        minimal = sdk_driver.make_client(minimal_legacy, TransportProtocol.JSONRPC, streaming=False)
        context = ClientCallContext(service_parameters={'X-A2A-Extensions': REQUIRED_EXTENSION})
        config = pb.TaskPushNotificationConfig(task_id='x', id='p', url=webhook.url + '/never')
        await expect_error(lambda: minimal.create_task_push_notification_config(config, context=context), sdk_errors.PushNotificationNotSupportedError)
        await minimal.close()

    checks = [
        ('the factory picks the v0.3 transport', transport_is_v0_3), ('send (task result)', send_task),
        ('send (message result)', send_message_result), ('stream', stream), ('get with historyLength', get_with_history),
        ('list: v0.3 has no ListTasks (client refuses)', list_unsupported), ('cancel', cancel), ('subscribe', subscribe),
        ('push-config CRUD with a webhook delivery', push_configs), ('extended card', extended_card),
        ('one store for every binding', cross_binding),
        ('error TaskNotFound', task_not_found), ('error TaskNotCancelable', task_not_cancelable),
        ('error UnsupportedOperation', unsupported_operation), ('error ContentTypeNotSupported', content_type_not_supported),
        ('error InvalidParams', invalid_params), ('error PushNotificationNotSupported', push_not_supported),
    ]
    for name, body in checks:
        await check(binding, name, body)
    await client.close()
    await streamer.close()


async def main(agent_url: str, minimal_url: str) -> None:
    async with httpx.AsyncClient() as http:
        card = await A2ACardResolver(http, agent_url).get_agent_card()
        minimal_card = await A2ACardResolver(http, minimal_url).get_agent_card()
        raw = (await http.get(agent_url + '/.well-known/agent-card.json', headers={'A2A-Version': '1.0'})).json()
        unversioned = (await http.get(agent_url + '/.well-known/agent-card.json')).json()

    async def card_checks():
        bindings = {(i.protocol_binding, i.protocol_version) for i in card.supported_interfaces}
        assert bindings == {(binding, version) for binding in ('JSONRPC', 'HTTP+JSON', 'GRPC') for version in ('1.0', '0.3')}, bindings
        caps = card.capabilities
        assert caps.streaming and caps.push_notifications and caps.extended_agent_card, caps
        assert [s.id for s in card.skills] == ['find-hotels', 'route-planner'], [s.id for s in card.skills]
        # Asked for with A2A-Version: 1.0, the document is the card as clean A2A v1 ProtoJSON (the SDK's own
        # writer), with no v0.3 fields merged in (they fail the strict v1 schema).
        assert raw == json_format.MessageToDict(card), 'the well-known card differs from the card in ProtoJSON'
        v0_3_only = set(agent_card_to_dict(card)) - set(json_format.MessageToDict(card))
        assert {'url', 'preferredTransport', 'protocolVersion'} <= v0_3_only, v0_3_only
        assert not v0_3_only & set(raw), f'v0.3 fields in the v1 card: {v0_3_only & set(raw)}'
        # Without the header (which section 3.6.2 reads as 0.3, and which the SDK's resolver does not send),
        # it is the card as the SDK's own server writes it, the v0.3 fields beside the v1 ones.
        assert unversioned == agent_card_to_dict(card), 'the unversioned card differs from the SDK server\'s'

    await check('card', 'card: interfaces, capabilities, skills, clean v1 JSON for 1.0, v0.3 fields without a version', card_checks)
    webhook = Webhook()
    created: dict[str, str] = {}
    try:
        for binding in (TransportProtocol.JSONRPC, TransportProtocol.HTTP_JSON, TransportProtocol.GRPC):
            await drive_v1(binding.value, card, minimal_card, webhook, created)
        await drive_jsonrpc_envelope_errors(card)
        await drive_v0_3(card, minimal_card, webhook, created)
    finally:
        webhook.close()


if __name__ == '__main__':
    sdk_driver.run(main, __doc__, 120)
