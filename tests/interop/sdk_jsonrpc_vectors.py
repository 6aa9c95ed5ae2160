#!/usr/bin/env python3
"""Interoperability vectors for A2A v0.3 JSON-RPC payloads, made and judged by the official A2A Python SDK
(a2a-sdk, pinned with its protobuf runtime in requirements.txt beside this file; pydantic pinned below).

The SDK is the oracle: its pydantic models for the v0.3 JSON Schema (a2a.compat.v0_3.types) decide what a
payload parses to and how it is written, and its converters (a2a.compat.v0_3.proto_utils and
a2a.compat.v0_3.conversions) decide what it becomes in protobuf. This script only builds values and asks
the SDK; it encodes and converts nothing itself.

    python sdk_jsonrpc_vectors.py generate OUTDIR

Builds realistic v0.3 payloads with the SDK's pydantic models and writes OUTDIR/manifest.json, an object:

  "sdk"                versions of a2a-sdk, protobuf and pydantic that made the vectors.
  "wire_dump_options"  the options of the SDK's wire form (see "JSON form" below).
  "cases"              a list, one entry per case:
      "schema_type"    a definition name of spec/v0_3/a2a.json (e.g. SendMessageRequest);
      "case"           a short id, unique within the schema type;
      "json"           the JSON input;
      "expected_json"  the SDK's canonical JSON of what it parsed from "json";
      "lenient"        true for inputs the SDK accepts but would not write itself (no `kind`, snake_case
                       names, explicit nulls, unknown members, strings for numbers, ...);
      "note"           where a case shows an SDK quirk, what it is (optional). Some notes are found by the
                       script itself: the SDK parsing a JSON as another model than it was written from
                       (pydantic takes the first union member that fits: every error object in a
                       JSONRPCErrorResponse reads as the generic JSONRPCError, several success responses
                       read as SendMessageSuccessResponse inside JSONRPCResponse), or not reading its own
                       canonical JSON back;
    and where the SDK has a converter for the schema type (the tables below):
      "proto_type"     "a2a.v1.<Message>" (A2A v0.3's gRPC binding, a2a.compat.v0_3.a2a_v0_3_pb2);
      "proto_of"       the part of the parsed value that was converted: "self", or "result" (the result of a
                       success response: the SDK converts those results, not the envelope);
      "proto_direction" "to_and_from": "proto_json" is ProtoJSON (json_format.MessageToDict, default options)
                       of proto_utils.ToProto(that part) and "from_proto_json" the v0.3 JSON of
                       proto_utils.FromProto(that proto); "from_only": the SDK has only FromProto for the type,
                       so "proto_json" is a request or response message built here as input and "json" is the
                       v0.3 JSON of FromProto of it;
      "proto_binpb_hex" the proto's binary, SerializeToString(deterministic=True), as hex (null for the
                       TaskState enum, whose ProtoJSON is the value's name);
      "from_proto_type" the definition name of FromProto's result;
      "from_proto_json" the v0.3 JSON of FromProto(proto). It may differ from "expected_json": that is the
                       conversion's loss, and an implementation must reproduce it exactly.
      "proto_error"    instead of the above when ToProto or FromProto raises: the exception, as text;
    and likewise "v1_type" ("lf.a2a.v1.<Message>", a2a.types.a2a_pb2), "v1_of", "v1_json",
    "v1_binpb_hex", "from_v1_type", "from_v1_json" (or "v1_error") for conversions.to_core_* and back with
    conversions.to_compat_*. The request and response converters take the whole envelope; converting back,
    they are given the envelope's id, as the SDK's server does.
  "method_names"       v0.3 JSON-RPC method <-> v1 method, found by driving the SDK's two JSON-RPC client
                       transports (a2a.compat.v0_3.jsonrpc_transport.CompatJsonRpcTransport and
                       a2a.client.transports.jsonrpc.JsonRpcTransport) with an in-memory HTTP transport and
                       recording the method each one sends for the same client call. (The server side,
                       JSONRPC03Adapter, needs a2a-sdk's http-server extra, which is not installed.) The
                       SDK has no table of its own for this mapping.
  "error_codes"        per JSON-RPC error code: the v0.3 error definition and its default message, the v1
                       error (a2a.utils.errors.JSON_RPC_ERROR_CODE_MAP), and the error each client transport
                       raises on receiving that code.

The whole file is written with sorted keys: the SDK's protobuf runtime hands out map and Struct entries in
an order that changes from run to run, so sorting is what makes two runs byte for byte the same.

Fails, listing what is missing, unless the cases cover: every one of the 93 definitions of
spec/v0_3/a2a.json as a schema type; every optional field of each object definition set (not null, and,
for a field with a non-null default that is not a constant, once with another value) in a case of that
type; every member of each union definition (built, where the SDK parses its JSON as another member) and
every value of each enum definition; every TaskState in a TaskStatus, every Role, every API key location;
every security scheme kind and OAuth flow kind in an AgentCard; for every method a request with a string
id and one with an integer id, a success response and an error response, in its response union too;
TaskStatusUpdateEvent with `final` true and false, on its own and in a streaming response.

JSON form. The SDK writes v0.3 models with model_dump(mode='json', by_alias=True, exclude_none=True)
(JSONRPC03Adapter for responses, CompatJsonRpcTransport for request params; SSE events use the equivalent
model_dump_json(by_alias=True, exclude_none=True)); "json" and "expected_json" use exactly that. One
exception in the SDK: the server adapter writes the error object of an error response it builds itself
with model_dump(by_alias=True), keeping "data": null. Lenient inputs are parsed like the server adapter
does: Model.model_validate(body), pydantic's lax Python mode.

    python sdk_jsonrpc_vectors.py check INDIR

Reads INDIR/manifest.json, written by the Rust tests: a list of {"schema_type", "case", "json"} (or an
object holding that list as "cases"), each optionally with "from_proto_json" and "from_v1_json", the
Rust side's own outputs, as JSON values. The SDK validates each "json" strictly (model_validate_json with
strict=True; a member the model does not know, or a snake_case name, is a failure too) with the model of
"schema_type", and compares the model with the one it builds for that case, built again here the same way:
the SDK's strict reading of its own "expected_json" (or, where it cannot read that, the model it parsed
from "json"); equal models pass, whatever the key order or explicit nulls. "from_proto_json" and
"from_v1_json" are validated the same way with the type of the SDK's own FromProto / to_compat_* result,
and compared with the SDK's reading of its own output.
Numbers compare as numbers (2 equals 2.0). Failures are listed, each naming schema type and case; the last
line is `N passed, M failed, D declined`, a case being declined when its entry holds "declined" (the
reason the Rust side rejects that input by design) instead of outputs. A case the SDK has but the manifest
lacks is a failure, and so is a case
with a conversion whose output the manifest leaves out. Exits non-zero on any failure.
--parts json,proto,v1 (the default) picks the outputs judged, so each Rust implementation under test can
be checked on its own part: json (reading and writing the JSON-RPC form), proto (from_proto_json), v1
(from_v1_json).

Converters of the SDK, by schema type (the "proto" and "v1" tables below hold them):

  proto_utils, both ways (ToProto and FromProto): Message, Part, FileWithBytes, FileWithUri, Task,
    TaskStatus, TaskState (the enum), Artifact, PushNotificationAuthenticationInfo (a2a.v1.AuthenticationInfo),
    PushNotificationConfig, TaskArtifactUpdateEvent, TaskStatusUpdateEvent, MessageSendConfiguration
    (a2a.v1.SendMessageConfiguration), TaskPushNotificationConfig, AgentCard, AgentCardSignature,
    AgentInterface, AgentCapabilities, AgentExtension, AgentProvider, AgentSkill, SecurityScheme,
    OAuthFlows; the result of SendMessageSuccessResponse (a2a.v1.SendMessageResponse) and of
    SendStreamingMessageSuccessResponse (a2a.v1.StreamResponse).
  proto_utils, FromProto only: MessageSendParams (from a2a.v1.SendMessageRequest), TaskQueryParams (from
    a2a.v1.GetTaskRequest), TaskIdParams (from a2a.v1.CancelTaskRequest, TaskSubscriptionRequest and
    GetTaskPushNotificationConfigRequest), TaskPushNotificationConfig (also from
    a2a.v1.CreateTaskPushNotificationConfigRequest), ListTaskPushNotificationConfigResponse (from
    a2a.v1.ListTaskPushNotificationConfigResponse). The SDK's v0.3 gRPC client builds those requests inline
    from a v1 request, not from the v0.3 model, so there is no ToProto to call.
  conversions (to_core_* and to_compat_*): Part, Message, TaskStatus, Task, PushNotificationAuthenticationInfo
    (lf.a2a.v1.AuthenticationInfo), PushNotificationConfig (lf.a2a.v1.TaskPushNotificationConfig),
    MessageSendConfiguration, Artifact, TaskStatusUpdateEvent, TaskArtifactUpdateEvent, OAuthFlows,
    SecurityScheme, AgentInterface, AgentProvider, AgentExtension, AgentCapabilities, AgentSkill,
    AgentCardSignature, AgentCard, TaskPushNotificationConfig; the requests SendMessageRequest,
    GetTaskRequest, CancelTaskRequest, SetTaskPushNotificationConfigRequest
    (lf.a2a.v1.TaskPushNotificationConfig), GetTaskPushNotificationConfigRequest,
    DeleteTaskPushNotificationConfigRequest, TaskResubscriptionRequest (lf.a2a.v1.SubscribeToTaskRequest),
    ListTaskPushNotificationConfigRequest (lf.a2a.v1.ListTaskPushNotificationConfigsRequest),
    GetAuthenticatedExtendedCardRequest (lf.a2a.v1.GetExtendedAgentCardRequest); the responses
    SendMessageResponse, ListTaskPushNotificationConfigResponse (lf.a2a.v1.ListTaskPushNotificationConfigsResponse)
    and SendStreamingMessageSuccessResponse (lf.a2a.v1.StreamResponse).
  None: the JSON-RPC base types (JSONRPCMessage, JSONRPCRequest, JSONRPCSuccessResponse, JSONRPCError,
    JSONRPCErrorResponse), every error type and A2AError (errors travel as exceptions, not messages), the
    unions A2ARequest and JSONRPCResponse, the other success responses and response unions (their results
    have cases of their own), SendStreamingMessageRequest (the server hands it to
    to_core_send_message_request, but nothing converts back to it; SendMessageRequest cases cover its
    params), the abstract bases FileBase, PartBase and SecuritySchemeBase, the Part members TextPart,
    FilePart and DataPart and the SecurityScheme members (the converters take the Part and SecurityScheme
    unions), the single OAuth flows (converted inside OAuthFlows), the other params types
    (GetTaskPushNotificationConfigParams, DeleteTaskPushNotificationConfigParams,
    ListTaskPushNotificationConfigParams: converted inside their requests), and TransportProtocol (a
    plain string in the protos).

Every run builds the same values and writes the same bytes.
"""

import argparse
import asyncio
import base64
import importlib.metadata
import inspect
import json
import logging
import sys
import typing
from enum import Enum
from pathlib import Path
from typing import Any, Callable, NamedTuple, Optional

from google.protobuf import json_format
from google.protobuf.message import Message as ProtoMessage
from pydantic import BaseModel, RootModel, TypeAdapter, ValidationError

from a2a.compat.v0_3 import a2a_v0_3_pb2 as pb_v03
from a2a.compat.v0_3 import conversions as cv
from a2a.compat.v0_3 import types as T
from a2a.compat.v0_3.proto_utils import FromProto, ToProto
from a2a.types import a2a_pb2 as pb_v1

from json_diff import differences

HERE = Path(__file__).resolve().parent
SCHEMA = HERE.parent.parent / 'spec' / 'v0_3' / 'a2a.json'

# Pins besides requirements.txt: pydantic decides how unions resolve and how lax input is coerced, so the
# vectors depend on it as much as on the SDK.
EXTRA_PINS = {'pydantic': '2.14.3', 'pydantic_core': '2.50.4'}

# The SDK's wire form of a v0.3 model (JSONRPC03Adapter._process_non_streaming_request and
# CompatJsonRpcTransport both call model_dump with exactly these).
WIRE_DUMP = {'mode': 'json', 'by_alias': True, 'exclude_none': True}


def schema_definitions():
    return json.loads(SCHEMA.read_text(encoding='utf-8'))['definitions']


def wire(value):
    """The SDK's JSON form of a v0.3 model (or enum member)."""
    if isinstance(value, Enum):
        return value.value
    return value.model_dump(**WIRE_DUMP)


def sdk_class(schema_type):
    return getattr(T, schema_type)


def lax_parse(cls, value):
    """What the SDK's server makes of a JSON body: Model.model_validate(body), pydantic's lax Python mode."""
    return TypeAdapter(cls).validate_python(value)


def strict_parse(cls, value):
    """The strictest reading pydantic allows for JSON input (strict=True: no coercion of strings to
    numbers or booleans; enums and constants still read from their JSON values)."""
    return TypeAdapter(cls).validate_json(json.dumps(value), strict=True)


# --- Realistic values -------------------------------------------------------------------------------------

TASK_ID = 'task-4821'
CONTEXT_ID = 'ctx-trip-2026-04'
CONFIG_ID = 'cfg-webhook-primary'
STRING_ID = 'req-7f3a9c2e'
INTEGER_ID = 42

PDF_BYTES = base64.b64encode(b'%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n').decode()
PNG_BYTES = base64.b64encode(b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06').decode()

# Metadata and data objects mix the JSON value kinds on purpose: through protobuf's Struct integers come
# back as doubles and nulls as nulls, which is part of what the conversions do.
METADATA = {
    'traceparent': '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    'priority': 2,
    'labels': ['vip', 'urgent'],
    'client': {'name': 'wayfarer-cli', 'version': '1.4.0', 'beta': False},
}
BOOKING = {
    'flight': {'from': 'LHR', 'to': 'LIS', 'departure': '2026-05-01T08:15:00Z', 'number': 'TP1351'},
    'passengers': 2,
    'price': {'amount': 249.99, 'currency': 'EUR'},
    'refundable': False,
    'seats': ['12A', '12B'],
    'loyaltyNumber': None,
}
EXTENSION_URI = 'https://agents.example.com/extensions/itinerary/v1'
TRACING_EXTENSION_URI = 'https://agents.example.com/extensions/tracing/v1'
WEBHOOK_URL = 'https://client.example.com/a2a/notifications'
TIMESTAMP = '2026-04-12T09:30:15.123Z'
SCOPES = {'read:tasks': 'Read your tasks', 'write:tasks': 'Create and cancel tasks'}


def text_part(text='Book two seats from London to Lisbon on 1 May.', metadata=None):
    return T.Part(root=T.TextPart(text=text, metadata=metadata))


def file_with_bytes(full=True):
    if not full:
        return T.FileWithBytes(bytes=PNG_BYTES)
    return T.FileWithBytes(bytes=PDF_BYTES, mime_type='application/pdf', name='itinerary.pdf')


def file_with_uri(full=True):
    if not full:
        return T.FileWithUri(uri='https://files.example.com/seatmap.png')
    return T.FileWithUri(uri='https://files.example.com/itineraries/lisbon-2026-05.pdf',
                         mime_type='application/pdf', name='lisbon-2026-05.pdf')


def file_part(file, metadata=None):
    return T.Part(root=T.FilePart(file=file, metadata=metadata))


def data_part(data=None, metadata=None):
    return T.Part(root=T.DataPart(data=BOOKING if data is None else data, metadata=metadata))


def user_message(message_id='msg-0001'):
    return T.Message(role=T.Role.user, message_id=message_id, parts=[text_part()])


def full_message():
    """Every field of Message set, with one part of each kind."""
    return T.Message(
        role=T.Role.agent,
        message_id='msg-0002',
        context_id=CONTEXT_ID,
        task_id=TASK_ID,
        reference_task_ids=['task-4710', 'task-4711'],
        extensions=[EXTENSION_URI],
        metadata=METADATA,
        parts=[
            text_part('Found 2 seats on TP1351 — café au lait included, 東京 next? 👋🏽',
                      metadata={'lang': 'en'}),
            file_part(file_with_bytes(), metadata={'source': 'booking-engine'}),
            file_part(file_with_uri()),
            data_part(metadata={'schema': 'https://agents.example.com/schemas/booking-v1.json'}),
        ],
    )


def status(state=T.TaskState.working, message=None, timestamp=None):
    return T.TaskStatus(state=state, message=message, timestamp=timestamp)


def artifact(full=True):
    if not full:
        return T.Artifact(artifact_id='artifact-receipt', parts=[data_part({'total': 499.98, 'currency': 'EUR'})])
    return T.Artifact(
        artifact_id='artifact-itinerary',
        name='itinerary.md',
        description='Day-by-day plan for the Lisbon trip, with booking references.',
        parts=[text_part('# Lisbon, 1-5 May\n\nDay 1: arrive 10:40, check in.'), file_part(file_with_uri())],
        metadata={'generator': 'planner-v2', 'pages': 3},
        extensions=[EXTENSION_URI],
    )


def task(full=True, state=T.TaskState.working):
    if not full:
        return T.Task(id=TASK_ID, context_id=CONTEXT_ID, status=status(T.TaskState.submitted))
    return T.Task(
        id=TASK_ID,
        context_id=CONTEXT_ID,
        status=status(state, T.Message(role=T.Role.agent, message_id='msg-0003', task_id=TASK_ID,
                                        context_id=CONTEXT_ID, parts=[text_part('Searching flights...')]),
                      TIMESTAMP),
        artifacts=[artifact(), artifact(full=False)],
        history=[user_message(), full_message()],
        metadata=METADATA,
    )


def authentication(full=True):
    if not full:
        return T.PushNotificationAuthenticationInfo(schemes=['Bearer'])
    return T.PushNotificationAuthenticationInfo(schemes=['Bearer', 'Basic'],
                                                credentials='eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3YXlmYXJlciJ9.c2ln')


def push_config(full=True):
    if not full:
        return T.PushNotificationConfig(url=WEBHOOK_URL)
    return T.PushNotificationConfig(id=CONFIG_ID, url=WEBHOOK_URL, token='whsec_9f8e7d6c5b4a',
                                    authentication=authentication())


def task_push_config(full=True):
    return T.TaskPushNotificationConfig(task_id=TASK_ID, push_notification_config=push_config(full))


def send_configuration(full=True):
    if not full:
        return T.MessageSendConfiguration()
    return T.MessageSendConfiguration(accepted_output_modes=['text/plain', 'application/json'], blocking=True,
                                      history_length=10, push_notification_config=push_config())


def send_params(full=True):
    if not full:
        return T.MessageSendParams(message=user_message())
    return T.MessageSendParams(message=full_message(), configuration=send_configuration(),
                               metadata={'channel': 'mobile-app', 'attempt': 1})


def status_event(final, state, full=True):
    return T.TaskStatusUpdateEvent(
        task_id=TASK_ID, context_id=CONTEXT_ID, final=final,
        status=status(state, T.Message(role=T.Role.agent, message_id='msg-0004', parts=[text_part('Done.')])
                      if full else None, TIMESTAMP if full else None),
        metadata={'sequence': 7} if full else None,
    )


def artifact_event(full=True):
    if not full:
        return T.TaskArtifactUpdateEvent(task_id=TASK_ID, context_id=CONTEXT_ID, artifact=artifact(full=False))
    return T.TaskArtifactUpdateEvent(task_id=TASK_ID, context_id=CONTEXT_ID, artifact=artifact(), append=True,
                                     last_chunk=True, metadata={'chunk': 3})


# Security schemes and OAuth flows.

def authorization_code_flow(full=True):
    return T.AuthorizationCodeOAuthFlow(
        authorization_url='https://auth.example.com/oauth2/authorize',
        token_url='https://auth.example.com/oauth2/token', scopes=SCOPES,
        refresh_url='https://auth.example.com/oauth2/refresh' if full else None)


def client_credentials_flow(full=True):
    return T.ClientCredentialsOAuthFlow(
        token_url='https://auth.example.com/oauth2/token', scopes={'admin': 'Everything'},
        refresh_url='https://auth.example.com/oauth2/refresh' if full else None)


def implicit_flow(full=True):
    return T.ImplicitOAuthFlow(
        authorization_url='https://auth.example.com/oauth2/authorize', scopes=SCOPES,
        refresh_url='https://auth.example.com/oauth2/refresh' if full else None)


def password_flow(full=True):
    return T.PasswordOAuthFlow(
        token_url='https://auth.example.com/oauth2/token', scopes={'read:tasks': 'Read your tasks'},
        refresh_url='https://auth.example.com/oauth2/refresh' if full else None)


FLOWS = {
    'authorization_code': authorization_code_flow,
    'client_credentials': client_credentials_flow,
    'implicit': implicit_flow,
    'password': password_flow,
}


def oauth2_scheme(flow_name, full=True):
    return T.OAuth2SecurityScheme(
        flows=T.OAuthFlows(**{flow_name: FLOWS[flow_name]()}),
        description=f'OAuth 2.0, {flow_name.replace("_", " ")} flow.' if full else None,
        oauth2_metadata_url='https://auth.example.com/.well-known/oauth-authorization-server' if full else None)


def api_key_scheme(location, full=True):
    name = {'header': 'X-API-Key', 'query': 'api_key', 'cookie': 'session'}[location]
    return T.APIKeySecurityScheme(in_=T.In(location), name=name,
                                  description=f'API key in the {location}.' if full else None)


def http_scheme(full=True):
    if not full:
        return T.HTTPAuthSecurityScheme(scheme='Basic')
    return T.HTTPAuthSecurityScheme(scheme='Bearer', bearer_format='JWT', description='Bearer token from the IdP.')


def openid_scheme(full=True):
    return T.OpenIdConnectSecurityScheme(
        open_id_connect_url='https://auth.example.com/.well-known/openid-configuration',
        description='OpenID Connect.' if full else None)


def mtls_scheme(full=True):
    return T.MutualTLSSecurityScheme(description='Client certificate issued by the partner CA.' if full else None)


def all_security_schemes():
    """One scheme of every kind, every API key location and every OAuth flow."""
    schemes = {f'apiKey{loc.title()}': api_key_scheme(loc) for loc in ('header', 'query', 'cookie')}
    schemes['bearer'] = http_scheme()
    schemes.update({f'oauth2_{flow}': oauth2_scheme(flow) for flow in FLOWS})
    schemes['oidc'] = openid_scheme()
    schemes['mtls'] = mtls_scheme()
    return {name: T.SecurityScheme(root=scheme) for name, scheme in schemes.items()}


def extension(full=True):
    if not full:
        return T.AgentExtension(uri=TRACING_EXTENSION_URI)
    return T.AgentExtension(uri=EXTENSION_URI, description='Adds structured itinerary parts to messages.',
                            required=True, params={'schemaUrl': 'https://agents.example.com/schemas/itinerary-v1.json',
                                                   'maxSegments': 12, 'strict': True})


def capabilities(full=True):
    if not full:
        return T.AgentCapabilities()
    return T.AgentCapabilities(streaming=True, push_notifications=True, state_transition_history=True,
                               extensions=[extension(), extension(full=False)])


def skill(full=True):
    if not full:
        return T.AgentSkill(id='track-expenses', name='Track expenses', description='Files receipts.', tags=['finance'])
    return T.AgentSkill(
        id='book-flights', name='Book flights',
        description='Finds and books flights that match dates, budget and seat preferences.',
        tags=['travel', 'booking', 'flights'],
        examples=['Find me a flight to Lisbon on 1 May', 'What is the cheapest fare next weekend?'],
        input_modes=['text/plain', 'application/json'], output_modes=['application/json', 'text/html'],
        security=[{'oauth2_authorization_code': ['write:tasks']}, {'apiKeyHeader': []}])


def signature(full=True):
    return T.AgentCardSignature(
        protected='eyJhbGciOiJFUzI1NiIsImtpZCI6ImtleS0yMDI2LTA0In0',
        signature='MEUCIQDx0Yp3r7m9k2VhZ8Qw3s6L1nZt5cXb0a9Y8eWv7u6T5AIgR4e3d2c1b0a',
        header={'kid': 'key-2026-04', 'jku': 'https://agents.example.com/.well-known/jwks.json'} if full else None)


def interface(transport):
    urls = {'JSONRPC': 'https://agents.example.com/travel/a2a/v1', 'GRPC': 'grpc://agents.example.com:443',
            'HTTP+JSON': 'https://agents.example.com/travel/rest/v1'}
    return T.AgentInterface(transport=transport, url=urls[transport])


def provider():
    return T.AgentProvider(organization='Example Travel Co.', url='https://www.example.com')


def agent_card(full=True):
    if not full:
        return T.AgentCard(name='Ledger Expense Agent', description='Files and tracks expenses.', version='1.0.0',
                           url='https://agents.example.com/ledger/a2a', capabilities=capabilities(full=False),
                           default_input_modes=['text/plain'], default_output_modes=['text/plain'],
                           skills=[skill(full=False)])
    return T.AgentCard(
        name='Wayfarer Travel Agent',
        description='Plans trips end to end: flights, hotels and ground transport.',
        version='2.4.1',
        url='https://agents.example.com/travel/a2a/v1',
        preferred_transport='JSONRPC',
        protocol_version='0.3.0',
        additional_interfaces=[interface(t.value) for t in T.TransportProtocol],
        provider=provider(),
        icon_url='https://www.example.com/wayfarer.svg',
        documentation_url='https://docs.example.com/wayfarer',
        capabilities=capabilities(),
        security_schemes=all_security_schemes(),
        security=[{'oauth2_authorization_code': ['read:tasks', 'write:tasks']}, {'apiKeyHeader': []}],
        default_input_modes=['text/plain', 'application/json'],
        default_output_modes=['text/plain', 'application/json', 'application/pdf'],
        skills=[skill(), skill(full=False)],
        supports_authenticated_extended_card=True,
        signatures=[signature(), signature(full=False)],
    )


# --- Cases ------------------------------------------------------------------------------------------------

class Case(NamedTuple):
    schema_type: str
    case: str
    json: Any                      # the JSON input (a Python JSON value)
    lenient: bool = False
    note: Optional[str] = None
    proto_source: Any = None       # for FromProto-only cases: the a2a.v1 message that is the input
    built_value: Any = None        # the model the input was written from, where it was built here


# Notes on SDK quirks that several cases share.
DELETE_NOTE = ('exclude_none drops the null result, so the SDK writes a success response without "result", '
               'which it then cannot parse back (result is required)')
BYTES_NOTE = ('ToProto stores the base64 text itself (its UTF-8 bytes) in a2a.v1 file_with_bytes, so its ProtoJSON '
              'is base64 of base64; to_core_part decodes it into lf.a2a.v1 raw')


def built(schema_type, case, value, note=None):
    """A case whose input is the SDK's own wire form of a value built with its models."""
    if note == DELETE_NOTE:
        # The SDK's wire form of this value has no "result", and the SDK cannot read that back; the input
        # is its dump with the nulls kept, the JSON-RPC form, and "expected_json" shows what the SDK writes.
        return Case(schema_type, case, value.model_dump(mode='json', by_alias=True), note=note, built_value=value)
    return Case(schema_type, case, wire(value), note=note, built_value=value)


ERROR_TYPES = [
    'JSONParseError', 'InvalidRequestError', 'MethodNotFoundError', 'InvalidParamsError', 'InternalError',
    'TaskNotFoundError', 'TaskNotCancelableError', 'PushNotificationNotSupportedError',
    'UnsupportedOperationError', 'ContentTypeNotSupportedError', 'InvalidAgentResponseError',
    'AuthenticatedExtendedCardNotConfiguredError',
]

# Data and messages an error may carry, by error type: what a server would plausibly say.
ERROR_DETAILS = {
    'JSONParseError': ('Unexpected end of JSON input at line 1 column 87', {'offset': 87}),
    'InvalidRequestError': ("Invalid request: 'jsonrpc' must be exactly '2.0'", {'field': 'jsonrpc'}),
    'MethodNotFoundError': ('Method tasks/list is not supported', {'method': 'tasks/list'}),
    'InvalidParamsError': ('params.message.parts must not be empty', [{'loc': ['params', 'message', 'parts']}]),
    'InternalError': ('Upstream booking engine timed out', 'timeout after 30s'),
    'TaskNotFoundError': ('Task task-9999 was not found', {'taskId': 'task-9999'}),
    'TaskNotCancelableError': ('Task task-4821 is already completed', {'state': 'completed'}),
    'PushNotificationNotSupportedError': ('This agent does not send push notifications', None),
    'UnsupportedOperationError': ('Resubscription is not supported', {'method': 'tasks/resubscribe'}),
    'ContentTypeNotSupportedError': ('audio/wav is not accepted', {'accepted': ['text/plain', 'application/json']}),
    'InvalidAgentResponseError': ('The agent returned a status update for another task', {'taskId': 'task-1'}),
    'AuthenticatedExtendedCardNotConfiguredError': ('No extended card for this client', 42),
}


def error(type_name, detailed=False):
    cls = sdk_class(type_name)
    if not detailed:
        return cls()
    message, data = ERROR_DETAILS[type_name]
    return cls(message=message, data=data if data is not None else {'retryable': False})


# Per JSON-RPC method: request type, its params (full, minimal), success response type, the results it
# returns, the response union, and the error a server would typically answer with.
class Method(NamedTuple):
    request: str
    params: Callable[[bool], Any]
    success: str
    results: list
    response: str
    error: str


def _results_send():
    return [('task', task()), ('message', full_message())]


def _results_stream():
    return [('task', task(full=False)), ('message', full_message()),
            ('status_update_final_true', status_event(True, T.TaskState.completed)),
            ('status_update_final_false', status_event(False, T.TaskState.working, full=False)),
            ('artifact_update', artifact_event())]


METHODS = [
    Method('SendMessageRequest', send_params, 'SendMessageSuccessResponse', _results_send, 'SendMessageResponse',
           'ContentTypeNotSupportedError'),
    Method('SendStreamingMessageRequest', send_params, 'SendStreamingMessageSuccessResponse', _results_stream,
           'SendStreamingMessageResponse', 'InvalidAgentResponseError'),
    Method('GetTaskRequest',
           lambda full: T.TaskQueryParams(id=TASK_ID, history_length=10, metadata={'view': 'full'})
           if full else T.TaskQueryParams(id=TASK_ID),
           'GetTaskSuccessResponse', lambda: [('task', task())], 'GetTaskResponse', 'TaskNotFoundError'),
    Method('CancelTaskRequest',
           lambda full: T.TaskIdParams(id=TASK_ID, metadata={'reason': 'trip postponed'})
           if full else T.TaskIdParams(id=TASK_ID),
           'CancelTaskSuccessResponse', lambda: [('task', task(state=T.TaskState.canceled))], 'CancelTaskResponse',
           'TaskNotCancelableError'),
    Method('SetTaskPushNotificationConfigRequest', task_push_config, 'SetTaskPushNotificationConfigSuccessResponse',
           lambda: [('config', task_push_config())], 'SetTaskPushNotificationConfigResponse',
           'PushNotificationNotSupportedError'),
    Method('GetTaskPushNotificationConfigRequest',
           lambda full: T.GetTaskPushNotificationConfigParams(id=TASK_ID, push_notification_config_id=CONFIG_ID,
                                                               metadata={'view': 'full'})
           if full else T.TaskIdParams(id=TASK_ID),
           'GetTaskPushNotificationConfigSuccessResponse', lambda: [('config', task_push_config())],
           'GetTaskPushNotificationConfigResponse', 'TaskNotFoundError'),
    Method('TaskResubscriptionRequest',
           lambda full: T.TaskIdParams(id=TASK_ID, metadata={'resumeAfter': 'evt-118'})
           if full else T.TaskIdParams(id=TASK_ID),
           'SendStreamingMessageSuccessResponse', lambda: [], 'SendStreamingMessageResponse',
           'UnsupportedOperationError'),
    Method('ListTaskPushNotificationConfigRequest',
           lambda full: T.ListTaskPushNotificationConfigParams(id=TASK_ID, metadata={'page': 1})
           if full else T.ListTaskPushNotificationConfigParams(id=TASK_ID),
           'ListTaskPushNotificationConfigSuccessResponse',
           lambda: [('two_configs', [task_push_config(), task_push_config(full=False)]), ('empty', [])],
           'ListTaskPushNotificationConfigResponse', 'PushNotificationNotSupportedError'),
    Method('DeleteTaskPushNotificationConfigRequest',
           lambda full: T.DeleteTaskPushNotificationConfigParams(id=TASK_ID, push_notification_config_id=CONFIG_ID,
                                                                  metadata={'audit': 'user-request'})
           if full else T.DeleteTaskPushNotificationConfigParams(id=TASK_ID, push_notification_config_id=CONFIG_ID),
           'DeleteTaskPushNotificationConfigSuccessResponse', lambda: [('null', None)],
           'DeleteTaskPushNotificationConfigResponse', 'TaskNotFoundError'),
    Method('GetAuthenticatedExtendedCardRequest', None, 'GetAuthenticatedExtendedCardSuccessResponse',
           lambda: [('card', agent_card())], 'GetAuthenticatedExtendedCardResponse',
           'AuthenticatedExtendedCardNotConfiguredError'),
]

def request(method, request_id, full):
    cls = sdk_class(method.request)
    if method.params is None:
        return cls(id=request_id)
    return cls(id=request_id, params=method.params(full))


def success(method, request_id, result):
    return sdk_class(method.success)(id=request_id, result=result)


def error_response(request_id, err):
    return T.JSONRPCErrorResponse(id=request_id, error=err)


def jsonrpc_cases():
    cases = []
    successes = []   # (method, case id, success response), for the JSONRPCResponse union
    for method in METHODS:
        # Requests: a string id with every param set, an integer id with the fewest.
        cases.append(built(method.request, 'string_id', request(method, STRING_ID, True)))
        cases.append(built(method.request, 'integer_id', request(method, INTEGER_ID, False)))
        cases.append(built('A2ARequest', method.request, T.A2ARequest(root=request(method, STRING_ID, True))))
        # Success responses, with the id of each kind; the response union with a success and an error.
        note = DELETE_NOTE if method.success == 'DeleteTaskPushNotificationConfigSuccessResponse' else None
        for index, (name, result) in enumerate(method.results()):
            request_id = STRING_ID if index % 2 == 0 else INTEGER_ID
            response = success(method, request_id, result)
            cases.append(built(method.success, f'{name}_{"string" if index % 2 == 0 else "integer"}_id', response,
                               note))
            successes.append((method, name, response))
            if index == 0:
                cases.append(built(method.success, f'{name}_integer_id' if request_id == STRING_ID
                                   else f'{name}_string_id',
                                   success(method, INTEGER_ID if request_id == STRING_ID else STRING_ID, result), note))
        if method.request != 'TaskResubscriptionRequest':  # its responses are the streaming ones, covered above
            first_result = method.results()[0][1]
            union = sdk_class(method.response)
            cases.append(built(method.response, 'success', union(root=success(method, STRING_ID, first_result)), note))
            cases.append(built(method.response, 'error',
                               union(root=error_response(STRING_ID, error(method.error, detailed=True)))))
    # GetTaskPushNotificationConfigRequest's params are a union: TaskIdParams when only the task is named.
    cases.append(built('GetTaskPushNotificationConfigRequest', 'task_id_params_string_id',
                       T.GetTaskPushNotificationConfigRequest(id=STRING_ID, params=T.TaskIdParams(id=TASK_ID))))
    cases.append(built('GetTaskPushNotificationConfigRequest', 'config_params_minimal',
                       T.GetTaskPushNotificationConfigRequest(
                           id=INTEGER_ID, params=T.GetTaskPushNotificationConfigParams(id=TASK_ID))))
    # The response union of all methods: one case per success type, and an error.
    seen = set()
    for method, name, response in successes:
        if method.success in seen or (method.success == 'SendStreamingMessageSuccessResponse'
                                      and not isinstance(response.result, T.TaskStatusUpdateEvent)):
            continue
        seen.add(method.success)
        note = DELETE_NOTE if method.success == 'DeleteTaskPushNotificationConfigSuccessResponse' else None
        cases.append(built('JSONRPCResponse', method.success, T.JSONRPCResponse(root=response), note))
    cases.append(built('JSONRPCResponse', 'error',
                       T.JSONRPCResponse(root=error_response(INTEGER_ID, error('InternalError', detailed=True)))))
    # Error responses: every error type in an envelope, a generic error with data, a null id.
    for index, type_name in enumerate(ERROR_TYPES):
        request_id = STRING_ID if index % 2 == 0 else INTEGER_ID
        cases.append(built('JSONRPCErrorResponse', type_name,
                           error_response(request_id, error(type_name, detailed=index % 3 == 0))))
    cases.append(built('JSONRPCErrorResponse', 'generic_with_data', error_response(
        STRING_ID, T.JSONRPCError(code=-32050, message='Rate limit exceeded',
                                  data={'retryAfterSeconds': 30, 'limit': 100}))))
    cases.append(built('JSONRPCErrorResponse', 'null_id', error_response(None, error('JSONParseError', True)),
                       'exclude_none drops the null id, though JSON-RPC requires "id": null when the request id is '
                       'unknown'))
    return cases


def base_jsonrpc_cases():
    return [
        built('JSONRPCMessage', 'string_id', T.JSONRPCMessage(id=STRING_ID)),
        built('JSONRPCMessage', 'integer_id', T.JSONRPCMessage(id=INTEGER_ID)),
        built('JSONRPCMessage', 'no_id', T.JSONRPCMessage()),
        built('JSONRPCRequest', 'string_id_with_params',
              T.JSONRPCRequest(id=STRING_ID, method='tasks/get', params={'id': TASK_ID, 'historyLength': 5})),
        built('JSONRPCRequest', 'integer_id_no_params',
              T.JSONRPCRequest(id=INTEGER_ID, method='agent/getAuthenticatedExtendedCard')),
        built('JSONRPCRequest', 'notification', T.JSONRPCRequest(method='tasks/cancel', params={'id': TASK_ID})),
        built('JSONRPCSuccessResponse', 'object_result',
              T.JSONRPCSuccessResponse(id=STRING_ID, result={'id': TASK_ID, 'status': {'state': 'working'}})),
        built('JSONRPCSuccessResponse', 'string_result', T.JSONRPCSuccessResponse(id=INTEGER_ID, result='pong')),
        built('JSONRPCSuccessResponse', 'list_result',
              T.JSONRPCSuccessResponse(id=INTEGER_ID, result=[1, 'two', None])),
        built('JSONRPCError', 'with_data', T.JSONRPCError(code=-32050, message='Rate limit exceeded',
                                                          data={'retryAfterSeconds': 30, 'limit': 100})),
        built('JSONRPCError', 'string_data', T.JSONRPCError(code=-32099, message='Server is shutting down',
                                                            data='drain in progress')),
        built('JSONRPCError', 'no_data', T.JSONRPCError(code=-32001, message='Task not found')),
    ]


def error_cases():
    cases = []
    for type_name in ERROR_TYPES:
        cases.append(built(type_name, 'default', error(type_name)))
        cases.append(built(type_name, 'with_data', error(type_name, detailed=True)))
        cases.append(built('A2AError', type_name, T.A2AError(root=error(type_name, detailed=True))))
    return cases


def part_cases():
    return [
        built('TextPart', 'minimal', T.TextPart(text='Hello')),
        built('TextPart', 'with_metadata', T.TextPart(text='Bonjour, ça va ? 你好 🌍', metadata={'lang': 'fr'})),
        built('FilePart', 'bytes', T.FilePart(file=file_with_bytes(), metadata={'source': 'booking-engine'})),
        built('FilePart', 'uri', T.FilePart(file=file_with_uri())),
        built('FilePart', 'uri_minimal', T.FilePart(file=file_with_uri(full=False))),
        built('DataPart', 'with_metadata', T.DataPart(data=BOOKING, metadata={'schema': 'booking-v1'})),
        built('DataPart', 'minimal', T.DataPart(data={})),
        built('PartBase', 'with_metadata', T.PartBase(metadata=METADATA)),
        built('PartBase', 'empty', T.PartBase()),
        built('FileBase', 'full', T.FileBase(mime_type='image/png', name='seatmap.png')),
        built('FileBase', 'empty', T.FileBase()),
        built('FileWithBytes', 'full', file_with_bytes(), BYTES_NOTE),
        built('FileWithBytes', 'minimal', file_with_bytes(full=False)),
        built('FileWithUri', 'full', file_with_uri()),
        built('FileWithUri', 'minimal', file_with_uri(full=False)),
        built('Part', 'text', text_part(metadata={'lang': 'en'})),
        built('Part', 'file_bytes', file_part(file_with_bytes(), metadata={'source': 'scanner'}), BYTES_NOTE),
        built('Part', 'file_uri', file_part(file_with_uri())),
        built('Part', 'data', data_part(metadata={'schema': 'booking-v1'})),
        built('Part', 'text_empty', text_part('')),
        # The SDK's convention for a v1 data part that holds no object: the value under "value", flagged in
        # the metadata (conversions.to_compat_part); to_core_part unwraps it again.
        built('Part', 'data_part_compat_list',
              data_part({'value': ['12A', '12B']}, metadata={'data_part_compat': True}),
              'the data_part_compat convention: v1 keeps the list itself as the part data'),
    ]


def message_cases():
    return [
        built('Message', 'user_minimal', user_message()),
        built('Message', 'agent_full', full_message()),
        built('Message', 'no_parts', T.Message(role=T.Role.agent, message_id='msg-0005', parts=[])),
    ]


def task_cases():
    cases = [
        built('Task', 'minimal', task(full=False)),
        built('Task', 'full', task()),
    ]
    for state in T.TaskState:
        name = state.value.replace('-', '_')
        cases.append(built('TaskState', name, state))
        cases.append(built('TaskStatus', f'state_{name}', status(state)))
    cases += [
        built('TaskStatus', 'full', status(T.TaskState.input_required,
                                           T.Message(role=T.Role.agent, message_id='msg-0006',
                                                     parts=[text_part('Which seat do you prefer?')]),
                                           TIMESTAMP)),
        built('TaskStatus', 'timestamp_offset', status(T.TaskState.working, timestamp='2026-04-12T11:30:15.250+02:00'),
              'the converters normalise the timestamp to UTC'),
        built('TaskStatus', 'timestamp_microseconds',
              status(T.TaskState.working, timestamp='2026-04-12T09:30:15.120000Z'),
              'protobuf prints 3, 6 or 9 fractional digits'),
        built('Artifact', 'full', artifact()),
        built('Artifact', 'minimal', artifact(full=False)),
        built('TaskStatusUpdateEvent', 'final_true', status_event(True, T.TaskState.completed)),
        built('TaskStatusUpdateEvent', 'final_false', status_event(False, T.TaskState.working, full=False)),
        built('TaskStatusUpdateEvent', 'final_true_input_required', status_event(True, T.TaskState.input_required),
              'v1 has no final flag: coming back, the SDK sets it from the state (completed, canceled, failed, '
              'rejected)'),
        built('TaskArtifactUpdateEvent', 'append_last_chunk', artifact_event()),
        built('TaskArtifactUpdateEvent', 'first_chunk',
              T.TaskArtifactUpdateEvent(task_id=TASK_ID, context_id=CONTEXT_ID, artifact=artifact(full=False),
                                        append=False, last_chunk=False)),
        built('TaskArtifactUpdateEvent', 'minimal', artifact_event(full=False)),
    ]
    return cases


def push_cases():
    return [
        built('PushNotificationAuthenticationInfo', 'full', authentication()),
        built('PushNotificationAuthenticationInfo', 'minimal', authentication(full=False)),
        built('PushNotificationConfig', 'full', push_config()),
        built('PushNotificationConfig', 'minimal', push_config(full=False)),
        built('TaskPushNotificationConfig', 'full', task_push_config()),
        built('TaskPushNotificationConfig', 'minimal', task_push_config(full=False),
              'ToProto names the config tasks/<task>/pushNotificationConfigs/None when it has no id'),
    ]


def params_cases():
    return [
        built('MessageSendConfiguration', 'full', send_configuration()),
        built('MessageSendConfiguration', 'non_blocking',
              T.MessageSendConfiguration(blocking=False, accepted_output_modes=['text/plain'])),
        built('MessageSendConfiguration', 'empty', send_configuration(full=False)),
        built('MessageSendConfiguration', 'history_length_zero', T.MessageSendConfiguration(history_length=0),
              'the converters treat a history length of 0 as unset'),
        built('MessageSendParams', 'full', send_params()),
        built('MessageSendParams', 'minimal', send_params(full=False)),
        built('TaskIdParams', 'full', T.TaskIdParams(id=TASK_ID, metadata={'reason': 'trip postponed'})),
        built('TaskIdParams', 'minimal', T.TaskIdParams(id=TASK_ID)),
        built('TaskQueryParams', 'full', T.TaskQueryParams(id=TASK_ID, history_length=10, metadata={'view': 'full'})),
        built('TaskQueryParams', 'minimal', T.TaskQueryParams(id=TASK_ID)),
        built('GetTaskPushNotificationConfigParams', 'full',
              T.GetTaskPushNotificationConfigParams(id=TASK_ID, push_notification_config_id=CONFIG_ID,
                                                    metadata={'view': 'full'})),
        built('GetTaskPushNotificationConfigParams', 'minimal', T.GetTaskPushNotificationConfigParams(id=TASK_ID)),
        built('DeleteTaskPushNotificationConfigParams', 'full',
              T.DeleteTaskPushNotificationConfigParams(id=TASK_ID, push_notification_config_id=CONFIG_ID,
                                                       metadata={'audit': 'user-request'})),
        built('DeleteTaskPushNotificationConfigParams', 'minimal',
              T.DeleteTaskPushNotificationConfigParams(id=TASK_ID, push_notification_config_id=CONFIG_ID)),
        built('ListTaskPushNotificationConfigParams', 'full',
              T.ListTaskPushNotificationConfigParams(id=TASK_ID, metadata={'page': 1})),
        built('ListTaskPushNotificationConfigParams', 'minimal', T.ListTaskPushNotificationConfigParams(id=TASK_ID)),
    ]


def security_cases():
    cases = []
    for location in T.In:
        scheme = api_key_scheme(location.value, full=location == T.In.header)
        cases.append(built('APIKeySecurityScheme', f'in_{location.value}', scheme))
    cases += [
        built('HTTPAuthSecurityScheme', 'bearer_full', http_scheme()),
        built('HTTPAuthSecurityScheme', 'basic_minimal', http_scheme(full=False)),
        built('OpenIdConnectSecurityScheme', 'full', openid_scheme()),
        built('OpenIdConnectSecurityScheme', 'minimal', openid_scheme(full=False)),
        built('MutualTLSSecurityScheme', 'full', mtls_scheme()),
        built('MutualTLSSecurityScheme', 'minimal', mtls_scheme(full=False)),
        built('SecuritySchemeBase', 'full', T.SecuritySchemeBase(description='Any scheme.')),
        built('SecuritySchemeBase', 'empty', T.SecuritySchemeBase()),
    ]
    for flow in FLOWS:
        cases.append(built('OAuth2SecurityScheme', flow, oauth2_scheme(flow, full=flow == 'authorization_code')))
        cases.append(built('OAuthFlows', flow, T.OAuthFlows(**{flow: FLOWS[flow]()})))
    for name, flow_cls in (('AuthorizationCodeOAuthFlow', 'authorization_code'),
                           ('ClientCredentialsOAuthFlow', 'client_credentials'),
                           ('ImplicitOAuthFlow', 'implicit'), ('PasswordOAuthFlow', 'password')):
        cases.append(built(name, 'full', FLOWS[flow_cls]()))
        cases.append(built(name, 'minimal', FLOWS[flow_cls](full=False)))
    cases += [
        built('OAuthFlows', 'all_flows', T.OAuthFlows(**{flow: make() for flow, make in FLOWS.items()}),
              'v0.3 allows several flows in one object, both protos only one: ToProto keeps the first '
              '(authorizationCode), to_core_oauth_flows the last (password)'),
        built('OAuthFlows', 'empty', T.OAuthFlows(), 'ToProto raises on flows without any flow'),
    ]
    for name, scheme in (('api_key', api_key_scheme('header')), ('http', http_scheme()),
                         ('oauth2', oauth2_scheme('client_credentials')), ('open_id_connect', openid_scheme()),
                         ('mutual_tls', mtls_scheme())):
        cases.append(built('SecurityScheme', name, T.SecurityScheme(root=scheme)))
    return cases


def agent_cases():
    cases = [
        built('AgentProvider', 'full', provider()),
        built('AgentExtension', 'full', extension()),
        built('AgentExtension', 'minimal', extension(full=False)),
        built('AgentExtension', 'not_required', T.AgentExtension(uri=EXTENSION_URI, required=False)),
        built('AgentCapabilities', 'full', capabilities()),
        built('AgentCapabilities', 'empty', capabilities(full=False)),
        built('AgentCapabilities', 'all_false', T.AgentCapabilities(streaming=False, push_notifications=False,
                                                                    state_transition_history=False)),
        built('AgentSkill', 'full', skill()),
        built('AgentSkill', 'minimal', skill(full=False)),
        built('AgentCardSignature', 'full', signature()),
        built('AgentCardSignature', 'minimal', signature(full=False)),
        built('AgentCard', 'full', agent_card()),
        built('AgentCard', 'minimal', agent_card(full=False)),
        built('AgentCard', 'grpc_preferred_older_protocol', agent_card(full=False).model_copy(update={
            'preferred_transport': 'GRPC', 'protocol_version': '0.2.6', 'url': 'grpc://agents.example.com:443',
            'additional_interfaces': [interface('JSONRPC')]}),
            'to_compat_agent_card keeps only interfaces of protocol 0.3 up to 1.0, so the JSON-RPC interface '
            'becomes the primary one'),
    ]
    for transport in T.TransportProtocol:
        name = transport.value.lower().replace('+', '_')
        cases.append(built('TransportProtocol', name, transport))
        cases.append(built('AgentInterface', name, interface(transport.value)))
    return cases


# Inputs the SDK accepts though it would not write them: (schema type, case id, JSON input, note).
LENIENT_INPUTS = [
    ('Message', 'lenient_no_kind',
     {'role': 'user', 'messageId': 'msg-0101', 'parts': [{'text': 'Hi'}]}, None),
    ('Message', 'lenient_snake_case',
     {'role': 'agent', 'message_id': 'msg-0102', 'context_id': CONTEXT_ID, 'task_id': TASK_ID,
      'reference_task_ids': ['task-4710'], 'parts': [{'kind': 'text', 'text': 'Hi'}]},
     'the models accept field names as well as aliases (validate_by_name)'),
    ('Message', 'lenient_explicit_nulls',
     {'kind': 'message', 'role': 'user', 'messageId': 'msg-0103', 'contextId': None, 'taskId': None,
      'metadata': None, 'extensions': None, 'referenceTaskIds': None,
      'parts': [{'kind': 'text', 'text': 'Hi', 'metadata': None}]}, None),
    ('Message', 'lenient_unknown_members',
     {'kind': 'message', 'role': 'user', 'messageId': 'msg-0104', 'priority': 'high',
      'parts': [{'kind': 'text', 'text': 'Hi', 'language': 'en'}]}, 'unknown members are dropped'),
    ('Part', 'lenient_text_no_kind', {'text': 'Hi'}, None),
    ('Part', 'lenient_file_uri_no_kind', {'file': {'uri': 'https://files.example.com/seatmap.png'}}, None),
    ('Part', 'lenient_file_bytes_no_kind', {'file': {'bytes': PNG_BYTES, 'mimeType': 'image/png'}}, None),
    ('Part', 'lenient_data_no_kind', {'data': {'seats': ['12A']}}, None),
    ('FilePart', 'lenient_bytes_and_uri',
     {'kind': 'file', 'file': {'bytes': PNG_BYTES, 'uri': 'https://files.example.com/seatmap.png'}},
     'both members of the file union fit; pydantic keeps the first, FileWithBytes, and drops uri'),
    ('Task', 'lenient_no_kind',
     {'id': TASK_ID, 'contextId': CONTEXT_ID, 'status': {'state': 'submitted'}}, None),
    ('TaskQueryParams', 'lenient_history_length_string', {'id': TASK_ID, 'historyLength': '10'},
     'lax mode turns the string into an integer'),
    ('MessageSendConfiguration', 'lenient_blocking_string', {'blocking': 'true', 'historyLength': 5.0},
     'lax mode turns "true" into true and 5.0 into 5'),
    ('TaskNotFoundError', 'lenient_no_message', {'code': -32001}, 'the default message is filled in'),
    ('JSONRPCErrorResponse', 'lenient_error_without_message',
     {'jsonrpc': '2.0', 'id': 7, 'error': {'code': -32001}},
     'the generic JSONRPCError needs a message, so the union falls to TaskNotFoundError and its default message'),
    ('SendMessageRequest', 'lenient_no_jsonrpc_no_method',
     {'id': 7, 'params': {'message': {'role': 'user', 'messageId': 'msg-0105', 'parts': [{'text': 'Hi'}]}}},
     'jsonrpc and method are constants with defaults, so the model fills them in (the SDK\'s dispatcher checks '
     'jsonrpc before it gets here)'),
    ('SendStreamingMessageSuccessResponse', 'lenient_status_update_no_kind',
     {'jsonrpc': '2.0', 'id': STRING_ID,
      'result': {'taskId': TASK_ID, 'contextId': CONTEXT_ID, 'final': True, 'status': {'state': 'completed'}}},
     'without kind the result union falls to the only member whose required fields are there'),
    ('A2ARequest', 'lenient_params_snake_case',
     {'jsonrpc': '2.0', 'id': 8, 'method': 'tasks/get', 'params': {'id': TASK_ID, 'history_length': 3}}, None),
]


def lenient_cases():
    return [Case(schema_type, name, value, lenient=True, note=note)
            for schema_type, name, value, note in LENIENT_INPUTS]


# Cases whose input is an a2a.v1 request or response message, for the types that only have FromProto:
# (schema type, case id, proto type, its ProtoJSON, the FromProto function, note).
FROM_PROTO_INPUTS = [
    ('MessageSendParams', 'from_proto_send_message_request', 'SendMessageRequest',
     {'message': {'messageId': 'msg-0201', 'contextId': CONTEXT_ID, 'role': 'ROLE_USER',
                  'content': [{'text': 'Book two seats.'}], 'extensions': [EXTENSION_URI]},
      'configuration': {'acceptedOutputModes': ['text/plain'], 'historyLength': 5, 'blocking': True,
                        'pushNotification': {'id': CONFIG_ID, 'url': WEBHOOK_URL, 'token': 'tok-3f2a',
                                             'authentication': {'schemes': ['Bearer'], 'credentials': 'secret'}}},
      'metadata': {'channel': 'mobile-app'}}, FromProto.message_send_params, None),
    ('MessageSendParams', 'from_proto_send_message_request_minimal', 'SendMessageRequest',
     {'message': {'messageId': 'msg-0202', 'role': 'ROLE_AGENT', 'content': [{'data': {'data': {'ok': True}}}]}},
     FromProto.message_send_params, None),
    ('TaskQueryParams', 'from_proto_get_task_request', 'GetTaskRequest',
     {'name': f'tasks/{TASK_ID}', 'historyLength': 10}, FromProto.task_query_params, None),
    ('TaskQueryParams', 'from_proto_get_task_request_minimal', 'GetTaskRequest',
     {'name': f'tasks/{TASK_ID}'}, FromProto.task_query_params, None),
    ('TaskIdParams', 'from_proto_cancel_task_request', 'CancelTaskRequest',
     {'name': f'tasks/{TASK_ID}'}, FromProto.task_id_params, None),
    ('TaskIdParams', 'from_proto_task_subscription_request', 'TaskSubscriptionRequest',
     {'name': f'tasks/{TASK_ID}'}, FromProto.task_id_params, None),
    ('TaskIdParams', 'from_proto_get_task_push_notification_config_request', 'GetTaskPushNotificationConfigRequest',
     {'name': f'tasks/{TASK_ID}/pushNotificationConfigs/{CONFIG_ID}'}, FromProto.task_id_params,
     'the config id in the name is dropped: TaskIdParams has no place for it'),
    ('TaskPushNotificationConfig', 'from_proto_create_task_push_notification_config_request',
     'CreateTaskPushNotificationConfigRequest',
     {'parent': f'tasks/{TASK_ID}', 'configId': CONFIG_ID,
      'config': {'name': f'tasks/{TASK_ID}/pushNotificationConfigs/{CONFIG_ID}',
                 'pushNotificationConfig': {'id': CONFIG_ID, 'url': WEBHOOK_URL, 'token': 'tok-3f2a'}}},
     FromProto.task_push_notification_config_request, 'configId and config.name are not read'),
    ('ListTaskPushNotificationConfigResponse', 'from_proto_list_response', 'ListTaskPushNotificationConfigResponse',
     {'configs': [{'name': f'tasks/{TASK_ID}/pushNotificationConfigs/{CONFIG_ID}',
                   'pushNotificationConfig': {'id': CONFIG_ID, 'url': WEBHOOK_URL}},
                  {'name': f'tasks/{TASK_ID}/pushNotificationConfigs/cfg-backup',
                   'pushNotificationConfig': {'id': 'cfg-backup', 'url': 'https://backup.example.com/hook',
                                              'authentication': {'schemes': ['Basic']}}}],
      'nextPageToken': 'eyJvZmZzZXQiOjUwfQ'},
     FromProto.list_task_push_notification_config_response,
     'the response gets a null id (dropped from the JSON) and nextPageToken is not read'),
]


def from_proto_cases():
    cases = []
    for schema_type, name, proto_name, proto_json, convert, note in FROM_PROTO_INPUTS:
        proto = json_format.ParseDict(proto_json, getattr(pb_v03, proto_name)())
        cases.append(Case(schema_type, name, wire(convert(proto)), note=note, proto_source=(proto, convert)))
    return cases


def all_cases():
    """Every case, in a fixed order; the same on every call."""
    cases = (part_cases() + message_cases() + task_cases() + push_cases() + params_cases() + security_cases()
             + agent_cases() + error_cases() + base_jsonrpc_cases() + jsonrpc_cases() + lenient_cases()
             + from_proto_cases())
    seen = set()
    for case in cases:
        key = (case.schema_type, case.case)
        if key in seen:
            raise AssertionError(f'two cases named {key}')
        seen.add(key)
    return cases


# --- Converters -------------------------------------------------------------------------------------------

class Converter(NamedTuple):
    of: str                  # 'self' or 'result': the part of the parsed value that is converted
    to: Callable             # v0.3 model -> message
    back: Callable           # (message, the whole parsed value) -> v0.3 model


def _back(convert):
    return lambda message, whole: convert(message)


def _proto(to, back, of='self'):
    return Converter(of, to, _back(back))


PROTO = {
    'Message': _proto(ToProto.message, FromProto.message),
    'Part': _proto(ToProto.part, FromProto.part),
    'FileWithBytes': _proto(ToProto.file, FromProto.file),
    'FileWithUri': _proto(ToProto.file, FromProto.file),
    'Task': _proto(ToProto.task, FromProto.task),
    'TaskStatus': _proto(ToProto.task_status, FromProto.task_status),
    'TaskState': _proto(ToProto.task_state, FromProto.task_state),
    'Artifact': _proto(ToProto.artifact, FromProto.artifact),
    'PushNotificationAuthenticationInfo': _proto(ToProto.authentication_info, FromProto.authentication_info),
    'PushNotificationConfig': _proto(ToProto.push_notification_config, FromProto.push_notification_config),
    'TaskArtifactUpdateEvent': _proto(ToProto.task_artifact_update_event, FromProto.task_artifact_update_event),
    'TaskStatusUpdateEvent': _proto(ToProto.task_status_update_event, FromProto.task_status_update_event),
    'MessageSendConfiguration': _proto(ToProto.message_send_configuration, FromProto.message_send_configuration),
    'TaskPushNotificationConfig': _proto(ToProto.task_push_notification_config,
                                         FromProto.task_push_notification_config),
    'AgentCard': _proto(ToProto.agent_card, FromProto.agent_card),
    'AgentCardSignature': _proto(ToProto.agent_card_signature, FromProto.agent_card_signature),
    'AgentInterface': _proto(ToProto.agent_interface, FromProto.agent_interface),
    'AgentCapabilities': _proto(ToProto.capabilities, FromProto.capabilities),
    'AgentExtension': _proto(ToProto.extension, FromProto.agent_extension),
    'AgentProvider': _proto(ToProto.provider, FromProto.provider),
    'AgentSkill': _proto(ToProto.skill, FromProto.skill),
    'SecurityScheme': _proto(ToProto.security_scheme, FromProto.security_scheme),
    'OAuthFlows': _proto(ToProto.oauth2_flows, FromProto.oauth2_flows),
    # The SDK's gRPC server converts the results of these responses (SendMessageResponse and
    # StreamResponse are results, not envelopes, in a2a.v1).
    'SendMessageSuccessResponse': _proto(ToProto.task_or_message, FromProto.task_or_message, of='result'),
    'SendStreamingMessageSuccessResponse': _proto(ToProto.stream_response, FromProto.stream_response, of='result'),
}


def _v1(to, back):
    return Converter('self', to, _back(back))


def _v1_with_id(to, back, id_of=lambda whole: whole.id):
    """Converters back to an envelope take the request id, which v1 messages do not carry: the SDK's server
    passes the id of the request it answers, and so do we."""
    return Converter('self', to, lambda message, whole: back(message, id_of(whole)))


V1 = {
    'Part': _v1(cv.to_core_part, cv.to_compat_part),
    'Message': _v1(cv.to_core_message, cv.to_compat_message),
    'TaskStatus': _v1(cv.to_core_task_status, cv.to_compat_task_status),
    'Task': _v1(cv.to_core_task, cv.to_compat_task),
    'PushNotificationAuthenticationInfo': _v1(cv.to_core_authentication_info, cv.to_compat_authentication_info),
    'PushNotificationConfig': _v1(cv.to_core_push_notification_config, cv.to_compat_push_notification_config),
    'MessageSendConfiguration': _v1(cv.to_core_send_message_configuration, cv.to_compat_send_message_configuration),
    'Artifact': _v1(cv.to_core_artifact, cv.to_compat_artifact),
    'TaskStatusUpdateEvent': _v1(cv.to_core_task_status_update_event, cv.to_compat_task_status_update_event),
    'TaskArtifactUpdateEvent': _v1(cv.to_core_task_artifact_update_event, cv.to_compat_task_artifact_update_event),
    'OAuthFlows': _v1(cv.to_core_oauth_flows, cv.to_compat_oauth_flows),
    'SecurityScheme': _v1(cv.to_core_security_scheme, cv.to_compat_security_scheme),
    'AgentInterface': _v1(cv.to_core_agent_interface, cv.to_compat_agent_interface),
    'AgentProvider': _v1(cv.to_core_agent_provider, cv.to_compat_agent_provider),
    'AgentExtension': _v1(cv.to_core_agent_extension, cv.to_compat_agent_extension),
    'AgentCapabilities': _v1(cv.to_core_agent_capabilities, cv.to_compat_agent_capabilities),
    'AgentSkill': _v1(cv.to_core_agent_skill, cv.to_compat_agent_skill),
    'AgentCardSignature': _v1(cv.to_core_agent_card_signature, cv.to_compat_agent_card_signature),
    'AgentCard': _v1(cv.to_core_agent_card, cv.to_compat_agent_card),
    'TaskPushNotificationConfig': _v1(cv.to_core_task_push_notification_config,
                                      cv.to_compat_task_push_notification_config),
    'SendMessageRequest': _v1_with_id(cv.to_core_send_message_request, cv.to_compat_send_message_request),
    'GetTaskRequest': _v1_with_id(cv.to_core_get_task_request, cv.to_compat_get_task_request),
    'CancelTaskRequest': _v1_with_id(cv.to_core_cancel_task_request, cv.to_compat_cancel_task_request),
    'GetTaskPushNotificationConfigRequest': _v1_with_id(cv.to_core_get_task_push_notification_config_request,
                                                        cv.to_compat_get_task_push_notification_config_request),
    'DeleteTaskPushNotificationConfigRequest': _v1_with_id(cv.to_core_delete_task_push_notification_config_request,
                                                           cv.to_compat_delete_task_push_notification_config_request),
    'SetTaskPushNotificationConfigRequest': _v1_with_id(cv.to_core_create_task_push_notification_config_request,
                                                        cv.to_compat_create_task_push_notification_config_request),
    'TaskResubscriptionRequest': _v1_with_id(cv.to_core_subscribe_to_task_request,
                                             cv.to_compat_subscribe_to_task_request),
    'ListTaskPushNotificationConfigRequest': _v1_with_id(cv.to_core_list_task_push_notification_config_request,
                                                         cv.to_compat_list_task_push_notification_config_request),
    'GetAuthenticatedExtendedCardRequest': _v1_with_id(cv.to_core_get_extended_agent_card_request,
                                                       cv.to_compat_get_extended_agent_card_request),
    'ListTaskPushNotificationConfigResponse': _v1_with_id(cv.to_core_list_task_push_notification_config_response,
                                                          cv.to_compat_list_task_push_notification_config_response,
                                                          lambda whole: whole.root.id),
    'SendMessageResponse': _v1_with_id(cv.to_core_send_message_response, cv.to_compat_send_message_response,
                                       lambda whole: whole.root.id),
    'SendStreamingMessageSuccessResponse': _v1_with_id(cv.to_core_stream_response, cv.to_compat_stream_response),
}


def proto_json(message):
    """ProtoJSON with json_format's default options; an enum (a bare number here) is written as its name,
    which is its ProtoJSON form."""
    if isinstance(message, ProtoMessage):
        return json_format.MessageToDict(message)
    return pb_v03.TaskState.Name(message)


def proto_hex(message):
    if isinstance(message, ProtoMessage):
        return message.SerializeToString(deterministic=True).hex()
    return None


def proto_name(message, package_module):
    if isinstance(message, ProtoMessage):
        return message.DESCRIPTOR.full_name
    return f'{package_module.DESCRIPTOR.package}.TaskState'


def _error_text(error):
    return f'{type(error).__name__}: {error}'


def convert(prefix, converter, parsed, package_module):
    """Runs one converter of the SDK both ways on the parsed value; returns the manifest fields and the
    v0.3 model it came back as (None if a step raised)."""
    part = parsed.result if converter.of == 'result' else parsed
    try:
        message = converter.to(part)
    except Exception as error:  # noqa: BLE001 - the SDK's own exception is the vector
        return {f'{prefix}_of': converter.of, f'{prefix}_error': f'to: {_error_text(error)}'}, None
    fields = {
        f'{prefix}_type': proto_name(message, package_module),
        f'{prefix}_of': converter.of,
        f'{prefix}_json': proto_json(message),
        f'{prefix}_binpb_hex': proto_hex(message),
    }
    try:
        back = converter.back(message, parsed)
    except Exception as error:  # noqa: BLE001
        fields[f'{prefix}_error'] = f'back: {_error_text(error)}'
        return fields, None
    fields[f'from_{prefix}_type'] = type(back).__name__
    fields[f'from_{prefix}_json'] = wire(back)
    return fields, back


class Built(NamedTuple):
    """A case with everything the SDK made of it."""
    case: Case
    parsed: Any                    # the model the SDK parsed from the input
    entry: dict                    # the manifest entry
    from_proto: Any                # FromProto's result, or None
    from_v1: Any                   # to_compat_*'s result, or None


def model_difference(built_value, parsed, path=''):
    """Where two models differ in type (or, failing that, in value), as `path: built X, parsed Y`."""
    if type(built_value) is not type(parsed):
        return f'{path or "."}: {type(built_value).__name__} built, {type(parsed).__name__} parsed'
    if isinstance(built_value, BaseModel):
        for name in type(built_value).model_fields:
            a, b = getattr(built_value, name), getattr(parsed, name)
            if a != b:
                return model_difference(a, b, f'{path}.{name}' if name != 'root' else path)
    if isinstance(built_value, list) and len(built_value) == len(parsed):
        for index, (a, b) in enumerate(zip(built_value, parsed)):
            if a != b:
                return model_difference(a, b, f'{path}[{index}]')
    return f'{path or "."}: {built_value!r} built, {parsed!r} parsed'


def build(case):
    cls = sdk_class(case.schema_type)
    parsed = lax_parse(cls, case.json)
    entry = {'schema_type': case.schema_type, 'case': case.case, 'json': case.json, 'expected_json': wire(parsed),
             'lenient': case.lenient}
    notes = [case.note] if case.note else []
    if case.built_value is not None and parsed != case.built_value:
        # pydantic resolves a union to the first member that fits best, which need not be the one built;
        # the JSON is the same, the model is not, and an implementation must read it the SDK's way.
        notes.append('the SDK parses this JSON as another model than it was written from: '
                     + model_difference(case.built_value, parsed))
    # The SDK should read its own canonical JSON back, strictly, as the same model; where it does not, say so.
    try:
        if strict_parse(cls, entry['expected_json']) != parsed:
            notes.append('the SDK reads its canonical JSON back as a different model')
    except ValidationError as error:
        if case.note != DELETE_NOTE:
            notes.append(f'the SDK cannot read its canonical JSON back: {error.errors()[0]["msg"]}')
    from_proto = from_v1 = None
    if case.proto_source is not None:
        proto, back = case.proto_source
        from_proto = back(proto)
        entry.update({'proto_type': proto.DESCRIPTOR.full_name, 'proto_of': 'self', 'proto_direction': 'from_only',
                      'proto_json': proto_json(proto), 'proto_binpb_hex': proto_hex(proto),
                      'from_proto_type': type(from_proto).__name__, 'from_proto_json': wire(from_proto)})
    elif case.schema_type in PROTO:
        fields, from_proto = convert('proto', PROTO[case.schema_type], parsed, pb_v03)
        entry.update(fields, proto_direction='to_and_from')
    if case.schema_type in V1 and case.proto_source is None:
        fields, from_v1 = convert('v1', V1[case.schema_type], parsed, pb_v1)
        entry.update(fields)
    if notes:
        entry['note'] = '; '.join(notes)
    return Built(case, parsed, entry, from_proto, from_v1)


# --- Coverage ---------------------------------------------------------------------------------------------

def walk(value):
    """Every model, enum member and value nested in `value`, itself included."""
    yield value
    if isinstance(value, RootModel):
        yield from walk(value.root)
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from walk(getattr(value, name))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from walk(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from walk(item)


def union_members(cls):
    return typing.get_args(cls.model_fields['root'].annotation)


def _is_constant(field):
    return typing.get_origin(field.annotation) is typing.Literal


def coverage_problems(built_cases):
    problems = []
    by_type = {}
    for b in built_cases:
        by_type.setdefault(b.case.schema_type, []).append(b.parsed)
    definitions = schema_definitions()
    for name in definitions:
        values = by_type.get(name)
        if not values:
            problems.append(f'{name}: in no case')
            continue
        cls = sdk_class(name)
        if isinstance(cls, type) and issubclass(cls, Enum):
            for member in cls:
                if member not in values:
                    problems.append(f'{name}: value {member.value!r} in no case')
        elif issubclass(cls, RootModel):
            # A member counts when a case was built from it, even where the SDK parses that JSON as another
            # member (the case's note says so): some members of JSONRPCResponse have the same shape.
            roots = {type(v.root) for v in values} | {type(b.case.built_value.root) for b in built_cases
                                                      if b.case.schema_type == name and b.case.built_value is not None}
            for member in union_members(cls):
                if member not in roots:
                    problems.append(f'{name}: member {member.__name__} in no case')
        else:
            for field_name, field in cls.model_fields.items():
                if field.is_required():
                    continue
                if not any(getattr(v, field_name) is not None for v in values):
                    problems.append(f'{name}.{field_name}: set in no case')
                elif field.default is not None and not _is_constant(field) and not any(
                        getattr(v, field_name) != field.default for v in values):
                    problems.append(f'{name}.{field_name}: never other than its default')
    for name in by_type:
        if name not in definitions:
            problems.append(f'{name}: not a definition of {SCHEMA.name}')
    everything = [item for b in built_cases for item in walk(b.parsed)]
    for enum, where in ((T.TaskState, T.TaskStatus), (T.Role, T.Message), (T.In, T.APIKeySecurityScheme)):
        found = {getattr(v, {'TaskStatus': 'state', 'Message': 'role', 'APIKeySecurityScheme': 'in_'}[where.__name__])
                 for v in everything if isinstance(v, where)}
        for member in enum:
            if member not in found:
                problems.append(f'{where.__name__}: {enum.__name__} {member.value!r} in no case')
    in_cards = [item for b in built_cases if b.case.schema_type == 'AgentCard' for item in walk(b.parsed)]
    for member in union_members(T.SecurityScheme):
        if not any(isinstance(v, member) for v in in_cards):
            problems.append(f'AgentCard: no {member.__name__} in any card')
    for flow in FLOWS:
        if not any(isinstance(v, T.OAuthFlows) and getattr(v, flow) is not None for v in in_cards):
            problems.append(f'AgentCard: no {flow} OAuth flow in any card')
    for method in METHODS:
        ids = {type(v.id) for v in by_type.get(method.request, [])}
        for kind in (str, int):
            if kind not in ids:
                problems.append(f'{method.request}: no request with a {kind.__name__} id')
        if not by_type.get(method.success):
            problems.append(f'{method.success}: no success response')
    finals = {v.final for v in by_type.get('TaskStatusUpdateEvent', [])}
    streamed = {v.result.final for v in by_type.get('SendStreamingMessageSuccessResponse', [])
                if isinstance(v.result, T.TaskStatusUpdateEvent)}
    for final in (True, False):
        if final not in finals or final not in streamed:
            problems.append(f'TaskStatusUpdateEvent: final {final} missing on its own or in a streaming response')
    return problems


# --- SDK facts: method names and error codes --------------------------------------------------------------

def _client_transports():
    """The SDK's two JSON-RPC client transports. Imported here: only `generate` needs them."""
    from a2a.client.transports.base import ClientTransport
    from a2a.client.transports.jsonrpc import JsonRpcTransport
    from a2a.compat.v0_3.jsonrpc_transport import CompatJsonRpcTransport
    return ClientTransport, {'v0_3': CompatJsonRpcTransport, 'v1': JsonRpcTransport}


async def _drive(transport_cls, call, answer_code):
    """Makes one client call through `transport_cls` against an in-memory server that answers every request
    with a JSON-RPC error of `answer_code`; returns (the request's method or None, the streaming flag, the
    name of the exception the client raised)."""
    import httpx
    seen = {}

    def serve(http_request):
        body = json.loads(http_request.content)
        seen['method'] = body.get('method')
        seen['streaming'] = 'text/event-stream' in http_request.headers.get('accept', '')
        answer = {'jsonrpc': '2.0', 'id': body.get('id'), 'error': {'code': answer_code, 'message': 'probe'}}
        if seen['streaming']:
            return httpx.Response(200, headers={'content-type': 'text/event-stream'},
                                  content=f'data: {json.dumps(answer)}\n\n'.encode())
        return httpx.Response(200, json=answer)

    # Both transports fetch the extended card only when the card they hold announces one.
    card = pb_v1.AgentCard(name='probe')
    card.capabilities.extended_agent_card = True
    async with httpx.AsyncClient(transport=httpx.MockTransport(serve)) as client:
        transport = transport_cls(client, card, 'https://agents.example.com/a2a')
        request_type = typing.get_type_hints(getattr(transport_cls, call))['request']
        try:
            result = getattr(transport, call)(request_type())
            if inspect.isasyncgen(result):
                async for _ in result:
                    pass
            else:
                await result
            raised = None
        except Exception as error:  # noqa: BLE001 - which exception it is, is the finding
            raised = type(error).__name__
    return seen.get('method'), seen.get('streaming'), raised


def method_names():
    """v0.3 method <-> v1 method, joined on the client call that sends them."""
    client_transport, transports = _client_transports()
    calls = sorted(client_transport.__abstractmethods__ - {'close'})
    v03_request_types = {m.model_fields['method'].default: m.__name__ for m in union_members(T.A2ARequest)}
    rows = []
    for call in calls:
        row = {'client_call': call}
        for version, cls in transports.items():
            method, streaming, raised = asyncio.run(_drive(cls, call, -32001))
            row[version] = method
            if method is None:
                row[f'{version}_note'] = f'the client raises {raised} without sending anything'
            else:
                row['streaming'] = streaming
        row['v0_3_request_type'] = v03_request_types.get(row['v0_3'])
        rows.append(row)
    sent = {row['v0_3'] for row in rows}
    for method, type_name in sorted(v03_request_types.items()):
        if method not in sent:
            rows.append({'client_call': None, 'v0_3': method, 'v1': None, 'v0_3_request_type': type_name,
                         'v0_3_note': 'no client call sends it'})
    return rows


def error_codes():
    """Per JSON-RPC error code: what each version defines, and what each client raises on receiving it."""
    from a2a.utils.errors import JSON_RPC_ERROR_CODE_MAP
    _, transports = _client_transports()
    v03 = {m.model_fields['code'].default: m for m in union_members(T.A2AError)}
    v1 = {code: error_type.__name__ for error_type, code in JSON_RPC_ERROR_CODE_MAP.items()}
    # -32000 is the first implementation-defined server error: neither version defines it.
    rows = []
    for code in sorted(set(v03) | set(v1) | {-32000}, reverse=True):
        row = {'code': code,
               'v0_3_type': v03[code].__name__ if code in v03 else None,
               'v0_3_default_message': v03[code].model_fields['message'].default if code in v03 else None,
               'v1_error': v1.get(code)}
        for version, cls in transports.items():
            row[f'{version}_client_raises'] = asyncio.run(_drive(cls, 'get_task', code))[2]
        rows.append(row)
    return rows


# --- Commands ---------------------------------------------------------------------------------------------

def versions():
    return {name: importlib.metadata.version(name) for name in ('a2a-sdk', 'protobuf', 'pydantic', 'pydantic_core')}


def build_all():
    return [build(case) for case in all_cases()]


def generate(outdir):
    built_cases = build_all()
    problems = coverage_problems(built_cases)
    if problems:
        print('coverage incomplete:\n  ' + '\n  '.join(problems), file=sys.stderr)
        return 1
    manifest = {
        'sdk': versions(),
        'wire_dump_options': WIRE_DUMP,
        'cases': [b.entry for b in built_cases],
        'method_names': method_names(),
        'error_codes': error_codes(),
    }
    outdir.mkdir(parents=True, exist_ok=True)
    text = json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False) + '\n'
    (outdir / 'manifest.json').write_text(text, encoding='utf-8')
    entries = manifest['cases']
    print(f'a2a-sdk {versions()["a2a-sdk"]}: {len(entries)} cases for '
          f'{len({e["schema_type"] for e in entries})} schema types '
          f'({sum(e["lenient"] for e in entries)} lenient inputs, '
          f'{sum("proto_json" in e for e in entries)} with a2a.v1, {sum("v1_json" in e for e in entries)} with '
          f'lf.a2a.v1, {sum("note" in e for e in entries)} with notes) in {outdir / "manifest.json"}')
    return 0


def unknown_members(value, known, path=''):
    """Members of our JSON the parsed model has no field for (pydantic drops them silently): `known` is the
    model's dump with every field, null or not, under its alias."""
    if isinstance(value, dict) and isinstance(known, dict):
        out = []
        for key, item in value.items():
            if key not in known:
                out.append(f'{path}.{key}')
            else:
                out.extend(unknown_members(item, known[key], f'{path}.{key}'))
        return out
    if isinstance(value, list) and isinstance(known, list):
        return [p for i, (v, k) in enumerate(zip(value, known)) for p in unknown_members(v, k, f'{path}[{i}]')]
    return []


def judge(label, cls, expected_model, ours):
    """Why our JSON value `ours`, read strictly as `cls`, is not the SDK's `expected_model`; empty if it is."""
    try:
        parsed = strict_parse(cls, ours)
    except ValidationError as error:
        details = '; '.join(f'{".".join(map(str, e["loc"]))}: {e["msg"]}' for e in error.errors()[:5])
        return [f'{label}: the SDK rejects our JSON as {cls.__name__}: {details}']
    problems = []
    full = TypeAdapter(cls).dump_python(parsed, mode='json', by_alias=True)
    extra = unknown_members(ours, full)
    if extra:
        problems.append(f'{label}: members the SDK does not know: {", ".join(extra[:8])}')
    if parsed != expected_model:
        details = differences(wire(expected_model), wire(parsed), numbers_by_value=True)
        if not details:
            details = [f'SDK parsed {type(getattr(expected_model, "root", expected_model)).__name__}, ours '
                       f'{type(getattr(parsed, "root", parsed)).__name__}']
        problems.append(f'{label}: a different value: ' + '; '.join(details[:8]))
    return problems


def reference(cls, sdk_json, sdk_model):
    """The model ours must equal: what the SDK reads, strictly, from its own JSON for the case. Reading
    the JSON, not taking the model the SDK converted or parsed the input to, matters where a union resolves
    by content: the SDK's canonical JSON may read back as another member (a lenient error without a message
    becomes TaskNotFoundError, its canonical JSON then the generic JSONRPCError), and so will ours. Where
    the SDK cannot read its own JSON (a delete response without "result"), the model itself is the reference."""
    try:
        return strict_parse(cls, sdk_json)
    except ValidationError:
        return sdk_model


def check(indir, parts=('json', 'proto', 'v1')):
    expected = {(b.case.schema_type, b.case.case): b for b in build_all()}
    manifest = json.loads((indir / 'manifest.json').read_text(encoding='utf-8'))
    entries = manifest['cases'] if isinstance(manifest, dict) else manifest
    failures = []
    passed = 0
    declined = 0
    seen = set()
    for entry in entries:
        key = (entry.get('schema_type'), entry.get('case'))
        b = expected.get(key)
        problems = []
        if b is not None and key not in seen and 'declined' in entry:
            # The Rust side rejects this input by design and says why; there is no output to judge.
            seen.add(key)
            declined += 1
            print(f'DECLINED {key[0]} {key[1]}: {entry["declined"]}')
            continue
        if b is None:
            problems.append('no such case among the SDK vectors')
        elif key in seen:
            problems.append('listed twice in the manifest')
        else:
            seen.add(key)
            if 'json' not in parts:
                pass
            elif 'json' not in entry:
                problems.append('json: missing')
            else:
                cls = sdk_class(key[0])
                problems += judge('json', cls, reference(cls, b.entry['expected_json'], b.parsed), entry['json'])
            for prefix, sdk_result in (('proto', b.from_proto), ('v1', b.from_v1)):
                if prefix not in parts:
                    continue
                field = f'from_{prefix}_json'
                if sdk_result is None:
                    if field in entry:
                        problems.append(f'{field}: the SDK has no such output for this case')
                elif field not in entry:
                    problems.append(f'{field}: missing (the SDK has {b.entry[f"from_{prefix}_type"]})')
                else:
                    cls = type(sdk_result)
                    problems += judge(field, cls, reference(cls, b.entry[field], sdk_result), entry[field])
        if problems:
            failures.append(f'FAIL {key[0]} {key[1]}: ' + ' | '.join(problems))
        else:
            passed += 1
    for key in expected:
        if key not in seen:
            failures.append(f'FAIL {key[0]} {key[1]}: missing from our manifest')
    for failure in failures:
        print(failure)
    print(f'{passed} passed, {len(failures)} failed, {declined} declined')
    return 1 if failures else 0


def check_versions():
    """Refuses to run with other versions than pinned: the vectors depend on them."""
    pins = dict(EXTRA_PINS)
    for line in (HERE / 'requirements.txt').read_text().splitlines():
        requirement = line.split('#', 1)[0].strip()
        if requirement:
            name, _, version = requirement.partition('==')
            pins[name] = version
    wrong = [f'{name} {importlib.metadata.version(name)} is installed, {version} is pinned'
             for name, version in pins.items() if importlib.metadata.version(name) != version]
    if wrong:
        sys.exit('sdk_jsonrpc_vectors.py: ' + '; '.join(wrong))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    commands = parser.add_subparsers(dest='command', required=True)
    generate_parser = commands.add_parser('generate', help='write the SDK vectors to OUTDIR/manifest.json')
    generate_parser.add_argument('outdir', type=Path)
    check_parser = commands.add_parser('check', help='judge the Rust outputs listed in INDIR/manifest.json')
    check_parser.add_argument('indir', type=Path)
    check_parser.add_argument('--parts', default='json,proto,v1',
                              help='which outputs to judge, comma-separated: json (our reading and writing of '
                                   'the JSON-RPC form), proto (from_proto_json), v1 (from_v1_json); default all')
    args = parser.parse_args()
    sys.stdout.reconfigure(encoding='utf-8', errors='backslashreplace')
    # The client transports log every error they are made to raise while probing; those are expected.
    logging.disable(logging.CRITICAL)
    check_versions()
    if args.command == 'generate':
        return generate(args.outdir)
    return check(args.indir, tuple(args.parts.split(',')))


if __name__ == '__main__':
    sys.exit(main())
