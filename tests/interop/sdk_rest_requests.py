#!/usr/bin/env python3
"""The HTTP requests the official A2A Python SDK's REST client sends, for every A2A v1 method.

    python sdk_rest_requests.py generate OUTDIR

Drives a2a.client.transports.rest.RestTransport in this process over an httpx.MockTransport (no socket
is opened): each method is called with a request read from tests/fixtures/v1 (the fixture of its
request type, with its tenant and without), plus a few requests with values that need
percent-encoding. The mock records each HTTP request the transport builds and answers with an empty
success. Writes OUTDIR/manifest.json, a list with one object per call:

  "case"     short name;
  "rpc"      the RPC called (`GetTask`);
  "method"   the HTTP method sent;
  "target"   the request target as sent on the wire (path and query, percent-encoded);
  "body"     the body as sent (text), or null;
  "request"  the request the SDK was asked to send, as canonical ProtoJSON (json_format.MessageToDict).
"""

import asyncio
import json
import sys
from pathlib import Path

import httpx
from google.protobuf import json_format

from a2a.client.transports.rest import RestTransport
from a2a.types import a2a_pb2

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "v1"

# (RPC, transport method, request type)
CALLS = [
    ("SendMessage", "send_message", a2a_pb2.SendMessageRequest),
    ("SendStreamingMessage", "send_message_streaming", a2a_pb2.SendMessageRequest),
    ("GetTask", "get_task", a2a_pb2.GetTaskRequest),
    ("ListTasks", "list_tasks", a2a_pb2.ListTasksRequest),
    ("CancelTask", "cancel_task", a2a_pb2.CancelTaskRequest),
    ("SubscribeToTask", "subscribe", a2a_pb2.SubscribeToTaskRequest),
    (
        "CreateTaskPushNotificationConfig",
        "create_task_push_notification_config",
        a2a_pb2.TaskPushNotificationConfig,
    ),
    (
        "GetTaskPushNotificationConfig",
        "get_task_push_notification_config",
        a2a_pb2.GetTaskPushNotificationConfigRequest,
    ),
    (
        "ListTaskPushNotificationConfigs",
        "list_task_push_notification_configs",
        a2a_pb2.ListTaskPushNotificationConfigsRequest,
    ),
    ("GetExtendedAgentCard", "get_extended_agent_card", a2a_pb2.GetExtendedAgentCardRequest),
    (
        "DeleteTaskPushNotificationConfig",
        "delete_task_push_notification_config",
        a2a_pb2.DeleteTaskPushNotificationConfigRequest,
    ),
]

# Requests beyond the fixtures: values a URL must encode, and filters only partly set.
EXTRA = [
    ("GetTask", {"id": "task 7 ä", "historyLength": 2}),
    ("ListTasks", {"status": "TASK_STATE_WORKING", "pageSize": 10, "contextId": "c 1&x=2"}),
    ("ListTasks", {"tenant": "tenant-b", "includeArtifacts": True}),
    ("CancelTask", {"id": "t:1"}),
]


async def call(rpc, method_name, request):
    sent = []

    def answer(http_request: httpx.Request) -> httpx.Response:
        sent.append(http_request)
        if rpc in ("SendStreamingMessage", "SubscribeToTask"):
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=b"")
        return httpx.Response(200, json={})

    card = a2a_pb2.AgentCard(name="oracle")
    card.capabilities.extended_agent_card = True
    async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
        transport = RestTransport(client, card, "http://agent.example")
        result = getattr(transport, method_name)(request)
        if hasattr(result, "__aiter__"):
            async for _ in result:
                pass
        else:
            await result
    (http_request,) = sent
    body = http_request.content.decode() if http_request.content else None
    return {
        "method": http_request.method,
        "target": http_request.url.raw_path.decode("ascii"),
        "body": body,
    }


async def generate(outdir: Path):
    outdir.mkdir(parents=True, exist_ok=True)
    types = {rpc: (name, message_type) for rpc, name, message_type in CALLS}
    requests = []
    for rpc, _, message_type in CALLS:
        fixture = json.loads((FIXTURES / f"{message_type.DESCRIPTOR.name}.json").read_text())
        without_tenant = {k: v for k, v in fixture.items() if k != "tenant"}
        requests.append((f"{rpc}-tenant", rpc, fixture))
        requests.append((f"{rpc}", rpc, without_tenant))
    for index, (rpc, json_request) in enumerate(EXTRA):
        requests.append((f"{rpc}-extra-{index}", rpc, json_request))

    cases = []
    for case, rpc, json_request in requests:
        method_name, message_type = types[rpc]
        request = json_format.ParseDict(json_request, message_type())
        sent = await call(rpc, method_name, request)
        cases.append({"case": case, "rpc": rpc, **sent, "request": json_format.MessageToDict(request)})
    (outdir / "manifest.json").write_text(json.dumps(cases, indent=2, ensure_ascii=False))
    print(f"{len(cases)} requests recorded")


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "generate":
        sys.exit(__doc__)
    asyncio.run(generate(Path(sys.argv[2])))


if __name__ == "__main__":
    main()
