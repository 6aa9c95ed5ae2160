#!/usr/bin/env python3
"""Interoperability vectors for A2A v1 (protobuf package lf.a2a.v1), made and judged by the official A2A
Python SDK (a2a-sdk, pinned with its protobuf runtime in requirements.txt beside this file).

The SDK is the oracle: its generated message classes and protobuf's json_format decide what every message
looks like in ProtoJSON and in the binary encoding. This script builds messages and asks the SDK; it never
encodes anything itself.

    python sdk_vectors.py generate [--package v1|v0_3] OUTDIR

Walks the SDK's lf.a2a.v1 file descriptor. For every message type (map entries excepted) it builds
messages that together set every field: realistic values chosen by field name, repeated fields and maps
with several entries, nested messages filled in turn, and every member of a oneof in a case of its own.
Edge cases follow where the type's fields allow them: unicode text, all 256 byte values, empty values
(the all-default message, empty strings, empty sub-messages), every enum value and unknown enum numbers,
integer limits, timestamps at the limits and with nanoseconds, JSON null data, Struct and Value numbers.
Each is written as the SDK's ProtoJSON (json_format.MessageToJson, default options) and binary
(SerializeToString(deterministic=True)). JSON-only cases hold input that only a lenient reader accepts
(unknown fields, snake_case names, nulls, numeric enums, URL-safe or unpadded base64, timestamp offsets,
numbers as strings); their expected output is the SDK's canonical JSON of what it parsed, with
ignore_unknown_fields=True. OUTDIR/manifest.json lists every case as
{"type", "case", "json", "binpb" (or null), "expected_json"}, with file names relative to OUTDIR.
Fails, listing them, if some message type, field, oneof member or enum value is in no case. Every run
builds the same messages: binaries are byte for byte the same, JSON files the same as JSON (the SDK's
runtime may print map entries in another order).

    python sdk_vectors.py check [--package v1|v0_3] INDIR

Reads INDIR/manifest.json, written by the Rust tests: per case {"type", "case", "json", "binpb"}, naming
the Rust side's JSON and binary output. The SDK parses both (strictly: unknown fields are errors) and
compares them with the message it built for that case, built again here the same way. Failures are
listed, each naming type and case; the last line is `N passed, M failed`, a case passing when both its
outputs do. A case the SDK has but the manifest lacks is a failure. Exits non-zero on any failure.

--package picks the protobuf package, the same for both commands: `v1` (the default) is lf.a2a.v1 from
a2a.types.a2a_pb2; `v0_3` is a2a.v1, A2A v0.3's gRPC binding, from the SDK's compatibility layer
(a2a.compat.v0_3.a2a_v0_3_pb2). The generator is the same; the nested scenarios, the lenient JSON inputs
and some realistic strings are per package.
"""

import argparse
import base64
import importlib
import importlib.metadata
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple, Optional

from google.protobuf import descriptor_pb2, json_format, message_factory, struct_pb2
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError, Message

from a2a.types import a2a_pb2

from json_diff import differences

PACKAGE = 'lf.a2a.v1'
# The package of each --package choice: its protobuf package and the module with its generated classes.
PACKAGES = {
    'v1': ('lf.a2a.v1', 'a2a.types.a2a_pb2'),
    'v0_3': ('a2a.v1', 'a2a.compat.v0_3.a2a_v0_3_pb2'),
}
SELECTED = 'v1'
HERE = Path(__file__).resolve().parent

TIMESTAMP = 'google.protobuf.Timestamp'
STRUCT = 'google.protobuf.Struct'
VALUE = 'google.protobuf.Value'

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INTEGER_LIMITS = {
    FieldDescriptor.TYPE_INT32: (INT32_MIN, INT32_MAX),
    FieldDescriptor.TYPE_SINT32: (INT32_MIN, INT32_MAX),
    FieldDescriptor.TYPE_SFIXED32: (INT32_MIN, INT32_MAX),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
}

# Enum numbers no A2A enum defines: open (proto3) enums must keep them.
UNKNOWN_ENUM_NUMBERS = [
    ('99', 99),
    ('minus_1', -1),
    ('int32_max', INT32_MAX),
    ('int32_min', INT32_MIN),
]

# Nesting deeper than this is left empty; A2A has no recursive types, so it only guards against one.
MAX_DEPTH = 8


# --- Realistic values -------------------------------------------------------------------------------------

# Strings by `Message.field` first, then by field name. A field not listed gets `field-name-N`.
STRING_HINTS = {
    'AgentCard.name': ['Wayfarer Travel Agent', 'Ledger Expense Agent'],
    'AgentSkill.name': ['Book flights', 'Plan itineraries', 'Track expenses'],
    'Artifact.name': ['itinerary.md', 'booking-confirmation', 'fare-comparison'],
    'APIKeySecurityScheme.name': ['X-API-Key', 'api_key'],
    'AgentCard.description': ['Plans trips end to end: flights, hotels and ground transport.'],
    'AgentSkill.description': ['Finds and books flights that match dates, budget and seat preferences.'],
    'Artifact.description': ['Day-by-day plan for the Lisbon trip, with booking references.'],
    'AgentExtension.description': ['Adds structured itinerary parts to messages.'],
    'AgentInterface.url': ['https://agents.example.com/travel/a2a/v1', 'grpc://agents.example.com:443'],
    'AgentProvider.url': ['https://www.example.com'],
    'Part.url': ['https://files.example.com/itineraries/lisbon-2026-05.pdf', 'https://files.example.com/seatmap.png'],
    'TaskPushNotificationConfig.url': ['https://client.example.com/a2a/notifications'],
    'HTTPAuthSecurityScheme.scheme': ['Bearer', 'Basic'],
    'AuthenticationInfo.scheme': ['Bearer'],
    'APIKeySecurityScheme.location': ['header', 'query', 'cookie'],
    'id': ['5f0e8c4a-7b1d-4c4e-9a53-0c2a4f6f1d10', 'b81c0d2e-3f4a-4b5c-8d6e-7f8091a2b3c4', 'cfg-webhook-primary'],
    'task_id': ['task-4821', 'task-4822', 'task-4823'],
    'context_id': ['ctx-trip-2026-04', 'ctx-support-17'],
    'message_id': ['msg-0001', 'msg-0002', 'msg-0003', 'msg-0004'],
    'artifact_id': ['artifact-itinerary', 'artifact-receipt'],
    'reference_task_ids': ['task-4710', 'task-4711', 'task-4712'],
    'tenant': ['acme-travel', 'globex'],
    'text': ['Book a table for two at 19:30.', 'Searching flights from London to Lisbon...', 'Done: 2 seats on TP1351.'],
    'description': ['Used by the booking workflow.', 'Short-lived credential for partner systems.'],
    'filename': ['itinerary.pdf', 'seatmap.png', 'receipt.json'],
    'media_type': ['application/pdf', 'image/png', 'application/json', 'text/plain'],
    'accepted_output_modes': ['text/plain', 'application/json', 'image/png'],
    'default_input_modes': ['text/plain', 'application/json'],
    'default_output_modes': ['text/plain', 'application/json', 'application/pdf'],
    'input_modes': ['text/plain', 'audio/wav'],
    'output_modes': ['application/json', 'text/html'],
    'extensions': ['https://agents.example.com/extensions/itinerary/v1', 'https://agents.example.com/extensions/tracing/v1'],
    'uri': ['https://agents.example.com/extensions/itinerary/v1', 'https://agents.example.com/extensions/tracing/v1'],
    'protocol_binding': ['JSONRPC', 'GRPC', 'HTTP+JSON'],
    'protocol_version': ['1.0', '0.3'],
    'version': ['2.4.1', '1.0.0-beta.3'],
    'organization': ['Example Travel Co.'],
    'tags': ['travel', 'booking', 'flights'],
    'examples': ['Find me a flight to Lisbon on 1 May', 'What is the cheapest fare next weekend?'],
    'credentials': ['eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3YXlmYXJlciJ9.c2lnbmF0dXJl'],
    'token': ['whsec_9f8e7d6c5b4a', 'tok-3f2a'],
    'protected': ['eyJhbGciOiJFUzI1NiIsImtpZCI6ImtleS0yMDI2LTA0In0'],
    'signature': ['MEUCIQDx0Yp3r7m9k2VhZ8Qw3s6L1nZt5cXb0a9Y8eWv7u6T5AIgR4e3d2c1b0a'],
    'bearer_format': ['JWT'],
    'list': ['read:tasks', 'write:tasks', 'admin'],
    'page_token': ['eyJvZmZzZXQiOjUwfQ'],
    'next_page_token': ['eyJvZmZzZXQiOjEwMH0'],
    'documentation_url': ['https://docs.example.com/wayfarer'],
    'icon_url': ['https://www.example.com/wayfarer.svg'],
    'oauth2_metadata_url': ['https://auth.example.com/.well-known/oauth-authorization-server'],
    'open_id_connect_url': ['https://auth.example.com/.well-known/openid-configuration'],
    'authorization_url': ['https://auth.example.com/oauth2/authorize'],
    'token_url': ['https://auth.example.com/oauth2/token'],
    'refresh_url': ['https://auth.example.com/oauth2/refresh'],
    'device_authorization_url': ['https://auth.example.com/oauth2/device'],
}

# Map keys and string values, by map field name.
MAP_HINTS = {
    'security_schemes': [('primary', None), ('partner', None), ('internal', None)],
    'schemes': [('oauth2', None), ('apiKey', None)],
    'scopes': [('read:tasks', 'Read your tasks'), ('write:tasks', 'Create and cancel tasks'), ('admin', 'Everything')],
}

INTEGER_HINTS = {'history_length': 10, 'page_size': 50, 'total_size': 137}

BYTES_HINTS = [
    b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10',
    b'%PDF-1.7\n%\xe2\xe3\xcf\xd3\n',
]

TIMESTAMP_HINTS = ['2026-04-12T09:30:15.123Z', '2026-04-12T09:31:02Z', '2026-04-12T09:45:00.250500Z']

STRUCT_HINTS = {
    'params': {'schemaUrl': 'https://agents.example.com/schemas/itinerary-v1.json', 'maxSegments': 12, 'strict': True},
    'header': {'alg': 'ES256', 'kid': 'key-2026-04', 'typ': 'JOSE'},
}
STRUCT_DEFAULT = {
    'traceparent': '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    'priority': 2,
    'confidence': 0.87,
    'labels': ['vip', 'urgent'],
    'client': {'name': 'wayfarer-cli', 'version': '1.4.0', 'beta': False},
    'deadline': None,
}
VALUE_DEFAULT = {
    'flight': {'from': 'LHR', 'to': 'LIS', 'departure': '2026-05-01T08:15:00Z', 'number': 'TP1351'},
    'passengers': 2,
    'price': {'amount': 249.99, 'currency': 'EUR'},
    'refundable': False,
    'seats': ['12A', '12B'],
    'loyaltyNumber': None,
}

UNICODE_TEXTS = [
    '東京で二人分の席を予約してください',  # CJK
    '予約確認 👋🏽 👩‍💻 🇵🇹 🏳️‍🌈',  # emoji: skin tone, ZWJ sequences, flags
    'Cafe\u0301 n\u0303 A\u030a Z\u0335\u0321a\u0336lgo',  # combining marks
    'مرحبا بالعالم \u200f שלום עולם',  # right to left, with a mark
    'quote " backslash \\ slash / tab \t newline \n return \r',  # JSON escapes
    'nul \u0000 unit separator \u001f delete \u007f',  # control characters
    'line separator \u2028 paragraph separator \u2029 bom \ufeff noncharacter \uffff',
    '𝄞 𠀀 𐍈 astral plane',  # outside the basic multilingual plane
    'ASCII and Ελληνικά and Кириллица',
]

UNICODE_STRUCT = {
    '名前': '山田太郎',
    '😀': ['🇯🇵', 'e\u0301', 'עברית'],
    '': 'empty key',
    'nested': {'\u0000': '\u2028', 'ключ': {'deeper': '𝄞'}},
}


# --- Edge values ------------------------------------------------------------------------------------------

TIMESTAMP_EDGES = [
    ('min', '0001-01-01T00:00:00Z'),
    ('max', '9999-12-31T23:59:59.999999999Z'),
    ('min_plus_one_nano', '0001-01-01T00:00:00.000000001Z'),
    ('epoch', '1970-01-01T00:00:00Z'),
    ('before_epoch_with_fraction', '1969-12-31T23:59:59.500Z'),
    ('nanos', '2026-04-12T09:30:15.123456789Z'),
    ('one_nano', '2026-04-12T09:30:15.000000001Z'),
    ('micros', '2026-04-12T09:30:15.123456Z'),
    ('millis_trailing_zero', '2026-04-12T09:30:15.120Z'),
    ('seven_digits', '2026-04-12T09:30:15.1234567Z'),
    ('leap_day', '2024-02-29T23:59:59.999Z'),
]

BYTES_EDGES = [
    ('all_256_values', bytes(range(256))),
    ('all_256_values_reversed', bytes(reversed(range(256)))),
    ('one_zero_byte', b'\x00'),
    ('two_bytes', b'\xff\xfe'),
    ('base64_alphabet_ends', b'\xfb\xff\xbf'),
]

STRUCT_NUMBERS = {
    'zero': 0,
    'one': 1,
    'minusOne': -1,
    'answer': 42,
    'half': 0.5,
    'tenth': 0.1,
    'pi': 3.141592653589793,
    'negativeFraction': -273.15,
    'tiny': 1e-7,
    'smallestSubnormal': 5e-324,
    'largestDouble': 1.7976931348623157e308,
    'int32Max': INT32_MAX,
    'int32Min': INT32_MIN,
    'twoPow53': 2**53,
    'minusTwoPow53': -(2**53),
    'aboveTwoPow53': 2**53 + 2,
    'uint64Max': 2**64 - 1,
    'tenPow21': 1e21,
    'negativeZero': -0.0,
}

STRUCT_EDGES = [
    ('numbers', STRUCT_NUMBERS),
    ('nesting', {
        'null': None,
        'true': True,
        'false': False,
        'emptyString': '',
        'emptyList': [],
        'emptyObject': {},
        'mixedList': [1, 'two', 3.5, None, False, {'k': [[]]}],
        'lists': [[1, 2], [], [[None]]],
        'object': {'a': {'b': {'c': {'d': 'deep'}}}},
    }),
    ('unicode', UNICODE_STRUCT),
]


def _deep_list(depth):
    value = 'bottom'
    for _ in range(depth):
        value = [value]
    return value


VALUE_EDGES = [
    ('integer', 42),
    ('zero', 0),
    ('negative_fraction', -0.25),
    ('two_pow_53', 2**53),
    ('string', 'confirmed'),
    ('string_empty', ''),
    ('true', True),
    ('false', False),
    ('list', [1, 'two', 3.5, None, True, {'k': []}]),
    ('list_empty', []),
    ('object', VALUE_DEFAULT),
    ('object_empty', {}),
    ('nested_24_deep', _deep_list(24)),
]


# --- Descriptor helpers -----------------------------------------------------------------------------------

def message_types():
    """Every message type of the package, nested ones included and map entries excluded, in declaration order."""
    if a2a_pb2.DESCRIPTOR.package != PACKAGE:
        sys.exit(f'sdk_vectors.py: a2a_pb2 is package {a2a_pb2.DESCRIPTOR.package}, expected {PACKAGE}')
    found = []

    def walk(desc):
        if desc.GetOptions().map_entry:
            return
        found.append(desc)
        for nested in desc.nested_types:
            walk(nested)

    for desc in a2a_pb2.DESCRIPTOR.message_types_by_name.values():
        walk(desc)
    return found


def message_class(desc):
    return message_factory.GetMessageClass(desc)


def class_by_name(full_name):
    return message_class(a2a_pb2.DESCRIPTOR.pool.FindMessageTypeByName(full_name))


_PROTO3_OPTIONAL = {}


def proto3_optional_fields(desc):
    """Names of the fields declared `optional` in proto3 (each sits alone in a synthetic oneof)."""
    if desc.full_name not in _PROTO3_OPTIONAL:
        proto = descriptor_pb2.DescriptorProto()
        desc.CopyToProto(proto)
        _PROTO3_OPTIONAL[desc.full_name] = {f.name for f in proto.field if f.proto3_optional}
    return _PROTO3_OPTIONAL[desc.full_name]


def real_oneof(field):
    """The oneof a field belongs to, unless that oneof is only proto3 `optional` machinery."""
    if field.containing_oneof is None or field.name in proto3_optional_fields(field.containing_type):
        return None
    return field.containing_oneof


def real_oneofs(desc):
    optional = proto3_optional_fields(desc)
    return [o for o in desc.oneofs if not (len(o.fields) == 1 and o.fields[0].name in optional)]


def is_map(field):
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def is_wkt(field, name):
    return field.message_type is not None and field.message_type.full_name == name


def zero_of(field):
    """The zero value of a scalar field's type (for a repeated field too, whose default_value is a list)."""
    kind = field.type
    if kind == FieldDescriptor.TYPE_STRING:
        return ''
    if kind == FieldDescriptor.TYPE_BYTES:
        return b''
    if kind == FieldDescriptor.TYPE_BOOL:
        return False
    if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return 0.0
    return 0  # integers and enums


def to_value(py):
    """A google.protobuf.Value holding the Python JSON-like value `py`."""
    value = struct_pb2.Value()
    if py is None:
        value.null_value = struct_pb2.NULL_VALUE
    elif isinstance(py, bool):
        value.bool_value = py
    elif isinstance(py, (int, float)):
        value.number_value = float(py)
    elif isinstance(py, str):
        value.string_value = py
    elif isinstance(py, dict):
        set_struct(value.struct_value, py)
    elif isinstance(py, list):
        value.list_value.SetInParent()
        for item in py:
            value.list_value.values.add().CopyFrom(to_value(item))
    else:
        raise TypeError(f'no JSON form for {py!r}')
    return value


def set_struct(struct, py):
    struct.SetInParent()
    for key, item in py.items():
        struct.fields[key].CopyFrom(to_value(item))


# --- Building messages ------------------------------------------------------------------------------------

class Filler:
    """Sets every field of a message (one member per oneof) to realistic values chosen by field name.

    With `unicode`, every string, map keys and Struct contents included, is one of UNICODE_TEXTS instead.
    Deterministic: the same calls give the same values.
    """

    def __init__(self, unicode=False):
        self.unicode = unicode
        self.counts = defaultdict(int)

    def _next(self, key):
        """1, 2, 3, ... for each `key` in turn, so repeated items and sibling messages differ."""
        self.counts[key] += 1
        return self.counts[key]

    def _pick(self, key, choices):
        return choices[(self._next(key) - 1) % len(choices)]

    def string(self, owner, field_name):
        if self.unicode:
            return self._pick('unicode', UNICODE_TEXTS)
        choices = STRING_HINTS.get(f'{owner}.{field_name}') or STRING_HINTS.get(field_name)
        if choices is None:
            return f'{field_name.replace("_", "-")}-{self._next(field_name)}'
        return self._pick(f'{owner}.{field_name}', choices)

    def scalar(self, owner, field):
        kind = field.type
        if kind == FieldDescriptor.TYPE_STRING:
            return self.string(owner, field.name)
        if kind == FieldDescriptor.TYPE_BYTES:
            return self._pick('bytes', BYTES_HINTS)
        if kind == FieldDescriptor.TYPE_BOOL:
            return True  # false is the default, which would leave a field without presence unset
        if kind == FieldDescriptor.TYPE_ENUM:
            return self._pick(field.enum_type.full_name, [v.number for v in field.enum_type.values if v.number != 0])
        if kind in INTEGER_LIMITS:
            return INTEGER_HINTS.get(field.name, 7 + self._next(field.name))
        if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
            return 0.5 + self._next(field.name)
        raise TypeError(f'{owner}.{field.name}: no filler for field type {kind}')

    def well_known(self, message, field_name):
        """Fills a well-known type; returns False for any other message."""
        name = message.DESCRIPTOR.full_name
        if name == TIMESTAMP:
            message.FromJsonString(self._pick(TIMESTAMP, TIMESTAMP_HINTS))
        elif name == STRUCT:
            set_struct(message, UNICODE_STRUCT if self.unicode else STRUCT_HINTS.get(field_name, STRUCT_DEFAULT))
        elif name == VALUE:
            message.CopyFrom(to_value(UNICODE_STRUCT if self.unicode else VALUE_DEFAULT))
        else:
            return False
        return True

    def fill(self, message, depth=0, variant=0, field_name=None):
        """Sets every field; `variant` picks the member of each oneof (round robin)."""
        message.SetInParent()
        if self.well_known(message, field_name):
            return
        desc = message.DESCRIPTOR
        chosen = {o.full_name: o.fields[variant % len(o.fields)].name for o in real_oneofs(desc)}
        for field in desc.fields:
            oneof = real_oneof(field)
            if oneof is not None and chosen[oneof.full_name] != field.name:
                continue
            self.set_field(message, field, depth, variant)

    def set_field(self, message, field, depth, variant):
        owner = message.DESCRIPTOR.name
        if field.message_type is not None and depth >= MAX_DEPTH:
            return
        if is_map(field):
            value_field = field.message_type.fields_by_name['value']
            container = getattr(message, field.name)
            hints = MAP_HINTS.get(field.name) or [(f'{field.name}-key-{i}', None) for i in range(3)]
            for index, (key, hinted_value) in enumerate(hints):
                if self.unicode:
                    key = self._pick('unicode map key', UNICODE_TEXTS)  # its own turn: keys never repeat
                if value_field.message_type is not None:
                    self.fill(container[key], depth + 1, index, field.name)
                elif hinted_value is not None and not self.unicode:
                    container[key] = hinted_value
                else:
                    container[key] = self.scalar(field.message_type.name, value_field)
        elif field.is_repeated:
            container = getattr(message, field.name)
            if field.message_type is not None:
                for index in range(3 if depth < 2 else 2):
                    self.fill(container.add(), depth + 1, index, field.name)
            else:
                container.extend(self.scalar(owner, field) for _ in range(3))
        elif field.message_type is not None:
            self.fill(getattr(message, field.name), depth + 1, variant, field.name)
        else:
            setattr(message, field.name, self.scalar(owner, field))


def cases_for(desc):
    """(case name, message) for one message type, built from its descriptor."""
    cls = message_class(desc)
    cases = []

    def add(name, message):
        cases.append((name, message))

    def each(fields, setter):
        message = cls()
        for field in fields:
            setter(message, field)
        return message

    oneofs = real_oneofs(desc)
    variants = max((len(o.fields) for o in oneofs), default=1)
    for variant in range(variants):
        suffix = ''.join('_' + o.fields[variant % len(o.fields)].name for o in oneofs)
        for name, unicode in (('full', False), ('unicode', True)):
            message = cls()
            Filler(unicode).fill(message, variant=variant)
            add(name + suffix, message)

    add('empty', cls())

    fields = list(desc.fields)
    singular = [f for f in fields if not f.is_repeated]

    # Present but empty: every oneof member at its zero value, proto3 `optional` scalars at zero.
    for field in fields:
        if real_oneof(field) is None:
            continue
        message = cls()
        if is_wkt(field, VALUE):
            getattr(message, field.name).null_value = struct_pb2.NULL_VALUE
            add(f'{field.name}_null', message)
        elif field.message_type is not None:
            getattr(message, field.name).SetInParent()
            add(f'{field.name}_empty', message)
        else:
            setattr(message, field.name, field.default_value)
            add(f'{field.name}_empty', message)
    optional = [f for f in singular if f.name in proto3_optional_fields(desc) and f.message_type is None]
    if optional:
        add('optional_fields_zero', each(optional, lambda m, f: setattr(m, f.name, f.default_value)))

    # Empty sub-messages, one empty item in every list, an empty key with an empty value in every map.
    def empty_child(message, field):
        if is_map(field):
            value_field = field.message_type.fields_by_name['value']
            container = getattr(message, field.name)
            if value_field.message_type is not None:
                container[''].SetInParent()
            else:
                container[''] = value_field.default_value
        elif field.is_repeated:
            container = getattr(message, field.name)
            if field.message_type is not None:
                container.add()
            else:
                container.append(zero_of(field))
        elif is_wkt(field, VALUE):
            getattr(message, field.name).null_value = struct_pb2.NULL_VALUE
        else:
            getattr(message, field.name).SetInParent()

    children = [f for f in fields if real_oneof(f) is None and (f.message_type is not None or f.is_repeated)]
    if children:
        add('empty_children', each(children, empty_child))

    # Every enum value by name, and numbers the enum does not define.
    for field in singular:
        if field.type != FieldDescriptor.TYPE_ENUM:
            continue
        for value in field.enum_type.values:
            if value.number != 0:
                add(f'{field.name}_{value.name}', each([field], lambda m, f: setattr(m, f.name, value.number)))
        for label, number in UNKNOWN_ENUM_NUMBERS:
            if number in field.enum_type.values_by_number:
                raise AssertionError(f'{field.enum_type.full_name} defines {number}; pick another unknown number')
            add(f'{field.name}_unknown_{label}', each([field], lambda m, f: setattr(m, f.name, number)))

    integers = [f for f in singular if f.type in INTEGER_LIMITS]
    if integers:
        add('integers_min', each(integers, lambda m, f: setattr(m, f.name, INTEGER_LIMITS[f.type][0])))
        add('integers_max', each(integers, lambda m, f: setattr(m, f.name, INTEGER_LIMITS[f.type][1])))

    stamps = [f for f in singular if is_wkt(f, TIMESTAMP)]
    if stamps:
        for label, text in TIMESTAMP_EDGES:
            add(f'timestamp_{label}', each(stamps, lambda m, f: getattr(m, f.name).FromJsonString(text)))

    for field in singular:
        if field.type == FieldDescriptor.TYPE_BYTES:
            for label, data in BYTES_EDGES:
                add(f'{field.name}_{label}', each([field], lambda m, f: setattr(m, f.name, data)))

    structs = [f for f in singular if is_wkt(f, STRUCT)]
    if structs:
        for label, content in STRUCT_EDGES:
            add(f'struct_{label}', each(structs, lambda m, f: set_struct(getattr(m, f.name), content)))

    for field in singular:
        if is_wkt(field, VALUE):
            for label, content in VALUE_EDGES:
                add(f'{field.name}_{label}',
                    each([field], lambda m, f: getattr(m, f.name).CopyFrom(to_value(content))))

    return cases


def scenario_cases():
    """Edge values deep inside realistic traffic, where a reader must carry them through nesting."""
    task = a2a_pb2.Task(id='task-4821', context_id='ctx-trip-2026-04')
    task.status.state = 99  # a state from a newer spec
    task.status.timestamp.FromJsonString('9999-12-31T23:59:59.999999999Z')
    reply = task.status.message
    reply.message_id = 'msg-0042'
    reply.role = a2a_pb2.ROLE_AGENT
    reply.parts.add(raw=bytes(range(256)), media_type='application/octet-stream', filename='blob.bin')
    reply.parts.add().data.null_value = struct_pb2.NULL_VALUE
    reply.parts.add(text=UNICODE_TEXTS[1] + ' ' + UNICODE_TEXTS[3])
    reply.parts.add(text='')
    task.history.add()  # an empty message in the history
    request = task.history.add(message_id='msg-0001', role=7)  # an unknown role
    request.parts.add(url='https://例え.テスト/パス?質問=値#断片', media_type='text/html')
    set_struct(task.metadata, STRUCT_NUMBERS)
    artifact = task.artifacts.add(artifact_id='artifact-itinerary')
    artifact.parts.add().data.CopyFrom(to_value(UNICODE_STRUCT))
    artifact.parts.add().metadata.SetInParent()

    update = a2a_pb2.StreamResponse()
    update.status_update.task_id = 'task-4821'
    update.status_update.status.state = -1
    update.status_update.status.timestamp.FromJsonString('0001-01-01T00:00:00Z')

    card = a2a_pb2.AgentCard(name='Wayfarer')
    card.security_schemes['mtls'].mtls_security_scheme.SetInParent()
    card.security_schemes['oidc'].open_id_connect_security_scheme.open_id_connect_url = ''
    card.security_schemes[''].SetInParent()
    requirement = card.security_requirements.add()
    requirement.schemes['mtls'].SetInParent()
    requirement.schemes['oidc'].list.extend(['', 'openid', '東京'])
    card.capabilities.streaming = False
    card.capabilities.extended_agent_card = False

    return [
        ('lf.a2a.v1.Task', 'nested_edges', task),
        ('lf.a2a.v1.StreamResponse', 'nested_edges_task', a2a_pb2.StreamResponse(task=task)),
        ('lf.a2a.v1.StreamResponse', 'nested_edges_status_update', update),
        ('lf.a2a.v1.SendMessageResponse', 'nested_edges_task', a2a_pb2.SendMessageResponse(task=task)),
        ('lf.a2a.v1.ListTasksResponse', 'nested_edges', a2a_pb2.ListTasksResponse(tasks=[task, a2a_pb2.Task()])),
        ('lf.a2a.v1.AgentCard', 'nested_edges', card),
    ]


# JSON that only a lenient reader accepts: (type, case, exact input text).
LENIENT_INPUTS = [
    ('lf.a2a.v1.Task', 'lenient_unknown_fields', '''{
  "kind": "task",
  "id": "task-4821",
  "contextId": "ctx-trip-2026-04",
  "futureField": {"nested": [1, {"deeper": null}], "flag": true},
  "status": {
    "state": "TASK_STATE_WORKING",
    "progress": {"percent": 40},
    "timestamp": "2026-04-12T09:30:15.123Z",
    "message": {
      "kind": "message",
      "messageId": "msg-0017",
      "role": "ROLE_AGENT",
      "x-trace": "abc",
      "parts": [{"kind": "text", "text": "Searching flights to Lisbon\\u2026", "annotations": []}]
    }
  },
  "artifacts": [{"artifactId": "artifact-itinerary", "unknownList": [], "parts": [{"text": "LHR \\u2192 LIS", "extra": 123}]}],
  "history": [{"messageId": "msg-0001", "role": "ROLE_USER", "unknownNull": null, "parts": [{"text": "Find me a flight"}]}]
}'''),
    ('lf.a2a.v1.AgentCard', 'lenient_unknown_fields', '''{
  "name": "Wayfarer",
  "protocolVersions": ["1.0"],
  "supportedInterfaces": [{"url": "https://agents.example.com/a2a/v1", "protocolBinding": "JSONRPC", "transport": "JSONRPC"}],
  "provider": {"organization": "Example Travel Co.", "url": "https://www.example.com", "country": "PT"},
  "capabilities": {"streaming": true, "stateTransitionHistory": true, "extensions": [{"uri": "https://agents.example.com/ext/v1", "experimental": {"a": [1]}}]},
  "securitySchemes": {
    "oauth": {"oauth2SecurityScheme": {"flows": {"authorizationCode": {
      "authorizationUrl": "https://auth.example.com/authorize",
      "tokenUrl": "https://auth.example.com/token",
      "scopes": {"read:tasks": "Read your tasks"},
      "pkceMethods": ["S256"]
    }, "extraFlowHint": 1}, "legacy": null}}
  },
  "skills": [{"id": "book-flight", "name": "Book flights", "tags": ["travel"], "rating": 4.5}],
  "signatures": [{"protected": "eyJhbGciOiJFUzI1NiJ9", "signature": "c2ln", "header": {"kid": "k1"}, "jwk": {}}]
}'''),
    ('lf.a2a.v1.StreamResponse', 'lenient_unknown_fields', '''{
  "statusUpdate": {"taskId": "task-4821", "contextId": "ctx-1", "final": true, "kind": "status-update",
                   "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-04-12T09:31:02Z"}}
}'''),
    ('lf.a2a.v1.Message', 'lenient_snake_case', '''{
  "message_id": "msg-0001",
  "context_id": "ctx-trip-2026-04",
  "task_id": "task-4821",
  "role": "ROLE_USER",
  "reference_task_ids": ["task-4710"],
  "parts": [{"text": "See attached", "media_type": "text/plain"}, {"url": "https://files.example.com/a.pdf", "filename": "a.pdf", "media_type": "application/pdf"}]
}'''),
    ('lf.a2a.v1.AgentCard', 'lenient_snake_case', '''{
  "name": "Wayfarer",
  "supported_interfaces": [{"url": "https://agents.example.com/a2a/v1", "protocol_binding": "GRPC", "protocol_version": "1.0"}],
  "documentation_url": "https://docs.example.com",
  "icon_url": "https://www.example.com/icon.svg",
  "default_input_modes": ["text/plain"],
  "default_output_modes": ["application/json"],
  "capabilities": {"push_notifications": true, "extended_agent_card": false},
  "security_schemes": {"key": {"api_key_security_scheme": {"location": "header", "name": "X-API-Key"}},
                       "http": {"http_auth_security_scheme": {"scheme": "Bearer", "bearer_format": "JWT"}}},
  "security_requirements": [{"schemes": {"key": {"list": []}}}],
  "skills": [{"id": "s", "name": "n", "input_modes": ["text/plain"], "output_modes": ["text/plain"], "security_requirements": []}]
}'''),
    ('lf.a2a.v1.ListTasksRequest', 'lenient_snake_case', '''{
  "tenant": "acme-travel", "context_id": "ctx-1", "status": "TASK_STATE_WORKING", "page_size": 25,
  "page_token": "eyJvZmZzZXQiOjUwfQ", "history_length": 0, "status_timestamp_after": "2026-04-12T00:00:00Z",
  "include_artifacts": false
}'''),
    ('lf.a2a.v1.SendMessageRequest', 'lenient_snake_case', '''{
  "message": {"message_id": "msg-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]},
  "configuration": {"accepted_output_modes": ["text/plain"], "history_length": 5, "return_immediately": true,
                    "task_push_notification_config": {"task_id": "task-1", "url": "https://client.example.com/hook",
                                                      "authentication": {"scheme": "Bearer", "credentials": "t"}}}
}'''),
    ('lf.a2a.v1.OAuthFlows', 'lenient_snake_case', '''{
  "device_code": {"device_authorization_url": "https://auth.example.com/device", "token_url": "https://auth.example.com/token", "refresh_url": "", "scopes": {}}
}'''),
    ('lf.a2a.v1.Message', 'lenient_nulls', '''{
  "messageId": "msg-0001", "contextId": null, "taskId": null, "role": null, "parts": null,
  "metadata": null, "extensions": null, "referenceTaskIds": null
}'''),
    ('lf.a2a.v1.AgentCard', 'lenient_nulls', '''{
  "name": "Wayfarer", "securitySchemes": null, "skills": null, "provider": null, "documentationUrl": null,
  "iconUrl": null, "signatures": null, "capabilities": {"streaming": null, "pushNotifications": true, "extensions": null}
}'''),
    ('lf.a2a.v1.Task', 'lenient_nulls', '''{
  "id": "task-1", "status": null, "artifacts": null, "history": null, "metadata": null
}'''),
    ('lf.a2a.v1.SendMessageConfiguration', 'lenient_nulls', '''{
  "historyLength": null, "acceptedOutputModes": null, "taskPushNotificationConfig": null, "returnImmediately": null
}'''),
    ('lf.a2a.v1.Part', 'lenient_nulls', '''{"text": "hello", "metadata": null, "filename": null, "mediaType": null}'''),
    ('lf.a2a.v1.TaskStatus', 'lenient_enum_number', '''{"state": 3}'''),
    ('lf.a2a.v1.TaskStatus', 'lenient_enum_number_zero', '''{"state": 0}'''),
    ('lf.a2a.v1.Message', 'lenient_enum_number', '''{"messageId": "m", "role": 2}'''),
    ('lf.a2a.v1.ListTasksRequest', 'lenient_enum_number', '''{"status": 6}'''),
    ('lf.a2a.v1.Part', 'lenient_base64_url_safe_unpadded', '''{"raw": "-_8"}'''),
    ('lf.a2a.v1.Part', 'lenient_base64_url_safe_padded', '''{"raw": "-_8="}'''),
    ('lf.a2a.v1.Part', 'lenient_base64_standard_unpadded', '''{"raw": "+/8"}'''),
    ('lf.a2a.v1.Part', 'lenient_base64_url_safe_all_256', json.dumps(
        {'raw': base64.urlsafe_b64encode(bytes(range(256))).decode().rstrip('=')})),
    ('lf.a2a.v1.TaskStatus', 'lenient_timestamp_offset_plus', '''{"timestamp": "2026-04-12T11:30:15.250+02:00"}'''),
    ('lf.a2a.v1.TaskStatus', 'lenient_timestamp_offset_minus', '''{"timestamp": "2026-04-12T04:00:15-05:30"}'''),
    ('lf.a2a.v1.TaskStatus', 'lenient_timestamp_offset_zero', '''{"timestamp": "2026-04-12T09:30:15+00:00"}'''),
    ('lf.a2a.v1.TaskStatus', 'lenient_timestamp_offset_date_change', '''{"timestamp": "2026-01-01T01:30:00+05:00"}'''),
    ('lf.a2a.v1.TaskStatus', 'lenient_timestamp_offset_nanos', '''{"timestamp": "2026-04-12T09:30:15.123456789-08:00"}'''),
    ('lf.a2a.v1.TaskStatus', 'lenient_timestamp_offset_to_min', '''{"timestamp": "0001-01-01T05:00:00+05:00"}'''),
    ('lf.a2a.v1.TaskStatus', 'lenient_timestamp_one_digit_fraction', '''{"timestamp": "2026-04-12T09:30:15.1Z"}'''),
    ('lf.a2a.v1.ListTasksRequest', 'lenient_timestamp_offset', '''{"statusTimestampAfter": "2026-04-12T00:00:00+09:00"}'''),
    ('lf.a2a.v1.GetTaskRequest', 'lenient_int32_as_string', '''{"id": "task-1", "historyLength": "10"}'''),
    ('lf.a2a.v1.ListTasksRequest', 'lenient_int32_limits_as_strings', '''{"pageSize": "-2147483648", "historyLength": "2147483647"}'''),
    ('lf.a2a.v1.ListTasksResponse', 'lenient_int32_exponent', '''{"pageSize": 1e1, "totalSize": 2.5e2}'''),
    ('lf.a2a.v1.ListTaskPushNotificationConfigsRequest', 'lenient_int32_integral_fraction', '''{"pageSize": 50.0}'''),
    ('lf.a2a.v1.Message', 'lenient_struct_big_integer', '''{"messageId": "m", "metadata": {"big": 12345678901234567890123, "exp": 1E2, "small": 25e-1}}'''),
    ('lf.a2a.v1.Part', 'lenient_escaped_unicode', '''{"text": "\\u6771\\u4eac \\ud83d\\ude00 e\\u0301 \\u05e9", "filename": "caf\\u00e9.txt"}'''),
]


def scenario_cases_v0_3():
    """scenario_cases for a2a.v1 (A2A v0.3): the same edges in its shapes (Part is a oneof of text, FilePart
    and DataPart; Message.content; TaskStatus.update, written `message` in JSON)."""
    task = a2a_pb2.Task(id='task-4821', context_id='ctx-trip-2026-04')
    task.status.state = 99  # a state from a newer spec
    task.status.timestamp.FromJsonString('9999-12-31T23:59:59.999999999Z')
    reply = task.status.update
    reply.message_id = 'msg-0042'
    reply.role = a2a_pb2.ROLE_AGENT
    part = reply.content.add()
    part.file.file_with_bytes = bytes(range(256))
    part.file.mime_type = 'application/octet-stream'
    part.file.name = 'blob.bin'
    reply.content.add().data.data.SetInParent()  # a DataPart with empty data
    reply.content.add().data.SetInParent()  # a DataPart without data
    reply.content.add(text=UNICODE_TEXTS[1] + ' ' + UNICODE_TEXTS[3])
    reply.content.add(text='')
    reply.content.add().file.SetInParent()  # a FilePart with neither member
    task.history.add()  # an empty message in the history
    request = task.history.add(message_id='msg-0001', role=7)  # an unknown role
    request.content.add().file.file_with_uri = 'https://例え.テスト/パス?質問=値#断片'
    set_struct(task.metadata, STRUCT_NUMBERS)
    artifact = task.artifacts.add(artifact_id='artifact-itinerary')
    set_struct(artifact.parts.add().data.data, UNICODE_STRUCT)
    artifact.parts.add().metadata.SetInParent()

    update = a2a_pb2.StreamResponse()
    update.status_update.task_id = 'task-4821'
    update.status_update.status.state = -1
    update.status_update.status.timestamp.FromJsonString('0001-01-01T00:00:00Z')
    update.status_update.final = True

    chunk = a2a_pb2.StreamResponse()
    chunk.artifact_update.task_id = 'task-4821'
    chunk.artifact_update.artifact.parts.add().file.file_with_bytes = b''
    chunk.artifact_update.last_chunk = True

    card = a2a_pb2.AgentCard(name='Wayfarer', url='https://agents.example.com/a2a', preferred_transport='GRPC')
    card.security_schemes['mtls'].mtls_security_scheme.SetInParent()
    card.security_schemes['oidc'].open_id_connect_security_scheme.open_id_connect_url = ''
    card.security_schemes[''].SetInParent()
    card.security_schemes['oauth'].oauth2_security_scheme.flows.implicit.scopes[''] = ''
    requirement = card.security.add()
    requirement.schemes['mtls'].SetInParent()
    requirement.schemes['oidc'].list.extend(['', 'openid', '東京'])
    card.capabilities.streaming = False
    card.additional_interfaces.add()

    create = a2a_pb2.CreateTaskPushNotificationConfigRequest(parent='tasks/task-4821', config_id='')
    create.config.push_notification_config.authentication.schemes.extend(['', 'Bearer'])

    return [
        ('a2a.v1.Task', 'nested_edges', task),
        ('a2a.v1.StreamResponse', 'nested_edges_task', a2a_pb2.StreamResponse(task=task)),
        ('a2a.v1.StreamResponse', 'nested_edges_status_update', update),
        ('a2a.v1.StreamResponse', 'nested_edges_artifact_update', chunk),
        ('a2a.v1.StreamResponse', 'nested_edges_msg', a2a_pb2.StreamResponse(msg=reply)),
        ('a2a.v1.SendMessageResponse', 'nested_edges_task', a2a_pb2.SendMessageResponse(task=task)),
        ('a2a.v1.AgentCard', 'nested_edges', card),
        ('a2a.v1.CreateTaskPushNotificationConfigRequest', 'nested_edges', create),
    ]


LENIENT_INPUTS_V0_3 = [
    ('a2a.v1.Task', 'lenient_unknown_fields', """{
  "kind": "task",
  "id": "task-4821",
  "contextId": "ctx-trip-2026-04",
  "futureField": {"nested": [1, {"deeper": null}], "flag": true},
  "status": {
    "state": "TASK_STATE_WORKING",
    "progress": {"percent": 40},
    "timestamp": "2026-04-12T09:30:15.123Z",
    "message": {
      "kind": "message",
      "messageId": "msg-0017",
      "role": "ROLE_AGENT",
      "x-trace": "abc",
      "content": [{"kind": "text", "text": "Searching flights to Lisbon\\u2026", "annotations": []}]
    }
  },
  "artifacts": [{"artifactId": "artifact-itinerary", "unknownList": [], "parts": [{"text": "LHR \\u2192 LIS", "extra": 123}]}],
  "history": [{"messageId": "msg-0001", "role": "ROLE_USER", "unknownNull": null, "content": [{"file": {"fileWithUri": "https://files.example.com/a.pdf", "size": 10}}]}]
}"""),
    ('a2a.v1.AgentCard', 'lenient_unknown_fields', """{
  "name": "Wayfarer",
  "protocolVersion": "0.3.0",
  "url": "https://agents.example.com/a2a/v1",
  "preferredTransport": "JSONRPC",
  "additionalInterfaces": [{"url": "https://agents.example.com/a2a/grpc", "transport": "GRPC", "protocolBinding": "GRPC"}],
  "provider": {"organization": "Example Travel Co.", "url": "https://www.example.com", "country": "PT"},
  "capabilities": {"streaming": true, "stateTransitionHistory": true, "extensions": [{"uri": "https://agents.example.com/ext/v1", "experimental": {"a": [1]}}]},
  "securitySchemes": {
    "oauth": {"oauth2SecurityScheme": {"flows": {"authorizationCode": {
      "authorizationUrl": "https://auth.example.com/authorize",
      "tokenUrl": "https://auth.example.com/token",
      "scopes": {"read:tasks": "Read your tasks"},
      "pkceMethods": ["S256"]
    }, "extraFlowHint": 1}, "legacy": null}}
  },
  "skills": [{"id": "book-flight", "name": "Book flights", "tags": ["travel"], "rating": 4.5}],
  "signatures": [{"protected": "eyJhbGciOiJFUzI1NiJ9", "signature": "c2ln", "header": {"kid": "k1"}, "jwk": {}}]
}"""),
    ('a2a.v1.StreamResponse', 'lenient_unknown_fields', """{
  "statusUpdate": {"taskId": "task-4821", "contextId": "ctx-1", "final": true, "kind": "status-update",
                   "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-04-12T09:31:02Z"}}
}"""),
    ('a2a.v1.TaskStatus', 'lenient_proto_field_name', """{"state": "TASK_STATE_WORKING", "update": {"messageId": "msg-1"}}"""),
    ('a2a.v1.SendMessageRequest', 'lenient_proto_field_name', """{"request": {"messageId": "msg-1", "role": "ROLE_USER", "content": [{"text": "hi"}]}}"""),
    ('a2a.v1.StreamResponse', 'lenient_proto_field_name', """{"msg": {"messageId": "msg-1", "role": "ROLE_AGENT"}}"""),
    ('a2a.v1.SendMessageResponse', 'lenient_proto_field_name', """{"msg": {"messageId": "msg-1"}}"""),
    ('a2a.v1.Message', 'lenient_snake_case', """{
  "message_id": "msg-0001",
  "context_id": "ctx-trip-2026-04",
  "task_id": "task-4821",
  "role": "ROLE_USER",
  "content": [{"text": "See attached"}, {"file": {"file_with_uri": "https://files.example.com/a.pdf", "name": "a.pdf", "mime_type": "application/pdf"}},
              {"file": {"file_with_bytes": "JVBERi0=", "mime_type": "application/pdf"}}]
}"""),
    ('a2a.v1.AgentCard', 'lenient_snake_case', """{
  "name": "Wayfarer",
  "protocol_version": "0.3.0",
  "preferred_transport": "GRPC",
  "additional_interfaces": [{"url": "https://agents.example.com/a2a/v1", "transport": "GRPC"}],
  "documentation_url": "https://docs.example.com",
  "icon_url": "https://www.example.com/icon.svg",
  "default_input_modes": ["text/plain"],
  "default_output_modes": ["application/json"],
  "capabilities": {"push_notifications": true},
  "supports_authenticated_extended_card": true,
  "security_schemes": {"key": {"api_key_security_scheme": {"location": "header", "name": "X-API-Key"}},
                       "http": {"http_auth_security_scheme": {"scheme": "Bearer", "bearer_format": "JWT"}}},
  "security": [{"schemes": {"key": {"list": []}}}],
  "skills": [{"id": "s", "name": "n", "input_modes": ["text/plain"], "output_modes": ["text/plain"], "security": []}]
}"""),
    ('a2a.v1.SendMessageRequest', 'lenient_snake_case', """{
  "message": {"message_id": "msg-1", "role": "ROLE_USER", "content": [{"text": "hi"}]},
  "configuration": {"accepted_output_modes": ["text/plain"], "history_length": 5, "blocking": true,
                    "push_notification": {"id": "cfg-1", "url": "https://client.example.com/hook",
                                          "authentication": {"schemes": ["Bearer"], "credentials": "t"}}}
}"""),
    ('a2a.v1.CreateTaskPushNotificationConfigRequest', 'lenient_snake_case', """{
  "parent": "tasks/task-1", "config_id": "cfg-1",
  "config": {"name": "tasks/task-1/pushNotificationConfigs/cfg-1", "push_notification_config": {"url": "https://client.example.com/hook"}}
}"""),
    ('a2a.v1.OAuthFlows', 'lenient_snake_case', """{
  "client_credentials": {"token_url": "https://auth.example.com/token", "refresh_url": "", "scopes": {}}
}"""),
    ('a2a.v1.Message', 'lenient_nulls', """{
  "messageId": "msg-0001", "contextId": null, "taskId": null, "role": null, "content": null,
  "metadata": null, "extensions": null
}"""),
    ('a2a.v1.AgentCard', 'lenient_nulls', """{
  "name": "Wayfarer", "securitySchemes": null, "skills": null, "provider": null, "documentationUrl": null,
  "iconUrl": null, "signatures": null, "security": null, "additionalInterfaces": null,
  "capabilities": {"streaming": null, "pushNotifications": true, "extensions": null}
}"""),
    ('a2a.v1.Task', 'lenient_nulls', """{
  "id": "task-1", "status": null, "artifacts": null, "history": null, "metadata": null
}"""),
    ('a2a.v1.SendMessageConfiguration', 'lenient_nulls', """{
  "historyLength": null, "acceptedOutputModes": null, "pushNotification": null, "blocking": null
}"""),
    ('a2a.v1.Part', 'lenient_nulls', """{"text": "hello", "metadata": null}"""),
    ('a2a.v1.FilePart', 'lenient_nulls', """{"fileWithUri": "https://files.example.com/a.pdf", "mimeType": null, "name": null}"""),
    ('a2a.v1.TaskStatus', 'lenient_enum_number', """{"state": 3}"""),
    ('a2a.v1.TaskStatus', 'lenient_enum_number_zero', """{"state": 0}"""),
    ('a2a.v1.Message', 'lenient_enum_number', """{"messageId": "m", "role": 2}"""),
    ('a2a.v1.FilePart', 'lenient_base64_url_safe_unpadded', """{"fileWithBytes": "-_8"}"""),
    ('a2a.v1.FilePart', 'lenient_base64_url_safe_padded', """{"fileWithBytes": "-_8="}"""),
    ('a2a.v1.FilePart', 'lenient_base64_standard_unpadded', """{"fileWithBytes": "+/8"}"""),
    ('a2a.v1.FilePart', 'lenient_base64_url_safe_all_256', json.dumps(
        {'fileWithBytes': base64.urlsafe_b64encode(bytes(range(256))).decode().rstrip('=')})),
    ('a2a.v1.TaskStatus', 'lenient_timestamp_offset_plus', """{"timestamp": "2026-04-12T11:30:15.250+02:00"}"""),
    ('a2a.v1.TaskStatus', 'lenient_timestamp_offset_minus', """{"timestamp": "2026-04-12T04:00:15-05:30"}"""),
    ('a2a.v1.TaskStatus', 'lenient_timestamp_offset_zero', """{"timestamp": "2026-04-12T09:30:15+00:00"}"""),
    ('a2a.v1.TaskStatus', 'lenient_timestamp_offset_date_change', """{"timestamp": "2026-01-01T01:30:00+05:00"}"""),
    ('a2a.v1.TaskStatus', 'lenient_timestamp_offset_nanos', """{"timestamp": "2026-04-12T09:30:15.123456789-08:00"}"""),
    ('a2a.v1.TaskStatus', 'lenient_timestamp_offset_to_min', """{"timestamp": "0001-01-01T05:00:00+05:00"}"""),
    ('a2a.v1.TaskStatus', 'lenient_timestamp_one_digit_fraction', """{"timestamp": "2026-04-12T09:30:15.1Z"}"""),
    ('a2a.v1.GetTaskRequest', 'lenient_int32_as_string', """{"name": "tasks/task-1", "historyLength": "10"}"""),
    ('a2a.v1.ListTaskPushNotificationConfigRequest', 'lenient_int32_limits_as_strings', """{"pageSize": "-2147483648"}"""),
    ('a2a.v1.SendMessageConfiguration', 'lenient_int32_exponent', """{"historyLength": 2.5e2}"""),
    ('a2a.v1.ListTaskPushNotificationConfigRequest', 'lenient_int32_integral_fraction', """{"pageSize": 50.0}"""),
    ('a2a.v1.Message', 'lenient_struct_big_integer', """{"messageId": "m", "metadata": {"big": 12345678901234567890123, "exp": 1E2, "small": 25e-1}}"""),
    ('a2a.v1.Part', 'lenient_escaped_unicode', """{"text": "\\u6771\\u4eac \\ud83d\\ude00 e\\u0301 \\u05e9"}"""),
    ('a2a.v1.FilePart', 'lenient_escaped_unicode', """{"fileWithUri": "https://files.example.com/caf\\u00e9", "name": "caf\\u00e9.txt"}"""),
]

# Realistic strings for a2a.v1 fields that lf.a2a.v1 does not have, added to STRING_HINTS for --package v0_3.
STRING_HINTS_V0_3 = {
    'AgentCard.url': ['https://agents.example.com/travel/a2a/v1'],
    'AgentCard.preferred_transport': ['JSONRPC', 'GRPC'],
    'AgentInterface.transport': ['GRPC', 'HTTP+JSON', 'JSONRPC'],
    'AgentCard.protocol_version': ['0.3.0'],
    'FilePart.file_with_uri': ['https://files.example.com/itineraries/lisbon-2026-05.pdf'],
    'FilePart.mime_type': ['application/pdf', 'image/png'],
    'FilePart.name': ['itinerary.pdf', 'seatmap.png'],
    'PushNotificationConfig.url': ['https://client.example.com/a2a/notifications'],
    'AuthenticationInfo.schemes': ['Bearer', 'Basic'],
    'TaskPushNotificationConfig.name': ['tasks/task-4821/pushNotificationConfigs/cfg-webhook-primary'],
    'GetTaskRequest.name': ['tasks/task-4821'],
    'CancelTaskRequest.name': ['tasks/task-4821'],
    'TaskSubscriptionRequest.name': ['tasks/task-4821'],
    'GetTaskPushNotificationConfigRequest.name': ['tasks/task-4821/pushNotificationConfigs/cfg-webhook-primary'],
    'DeleteTaskPushNotificationConfigRequest.name': ['tasks/task-4821/pushNotificationConfigs/cfg-webhook-primary'],
    'CreateTaskPushNotificationConfigRequest.parent': ['tasks/task-4821'],
    'ListTaskPushNotificationConfigRequest.parent': ['tasks/task-4821'],
    'config_id': ['cfg-webhook-primary'],
}

SCENARIOS = {'v1': scenario_cases, 'v0_3': scenario_cases_v0_3}
LENIENT = {'v1': LENIENT_INPUTS, 'v0_3': LENIENT_INPUTS_V0_3}


def select_package(choice):
    """Makes PACKAGE and a2a_pb2 those of a --package choice."""
    global PACKAGE, SELECTED, a2a_pb2
    PACKAGE, module = PACKAGES[choice]
    SELECTED = choice
    a2a_pb2 = importlib.import_module(module)
    if choice == 'v0_3':
        STRING_HINTS.update(STRING_HINTS_V0_3)


class Case(NamedTuple):
    type: str
    case: str
    message: Message
    input_json: Optional[str]  # set for JSON-only (lenient input) cases


def all_cases():
    """Every case, in a fixed order; the same on every call."""
    cases = []
    for desc in message_types():
        for name, message in cases_for(desc):
            cases.append(Case(desc.full_name, name, message, None))
    for type_name, name, message in SCENARIOS[SELECTED]():
        cases.append(Case(type_name, name, message, None))
    for type_name, name, text in LENIENT[SELECTED]:
        try:
            message = json_format.Parse(text, class_by_name(type_name)(), ignore_unknown_fields=True)
        except json_format.ParseError as error:
            raise AssertionError(f'{type_name} {name}: the SDK rejects this lenient input: {error}') from error
        cases.append(Case(type_name, name, message, text))
    seen = set()
    for case in cases:
        key = (case.type, case.case)
        if key in seen:
            raise AssertionError(f'two cases named {key}')
        seen.add(key)
    return cases


def coverage_problems(cases):
    """What no case covers: message types, fields, oneof members, enum values of singular enum fields."""
    by_type = defaultdict(list)
    for case in cases:
        by_type[case.type].append(case.message)
    problems = []
    for desc in message_types():
        messages = by_type.get(desc.full_name, [])
        if desc.fields and not any(m.ListFields() for m in messages):
            problems.append(f'{desc.full_name}: no case with any field set')
        if not messages:
            problems.append(f'{desc.full_name}: in no case')
        set_fields = {f.name for m in messages for f, _ in m.ListFields()}
        for field in desc.fields:
            if field.name not in set_fields:
                problems.append(f'{desc.full_name}.{field.name}: set in no case')
        for oneof in real_oneofs(desc):
            for field in oneof.fields:
                if not any(m.WhichOneof(oneof.name) == field.name for m in messages):
                    problems.append(f'{desc.full_name}.{oneof.name}: member {field.name} chosen in no case')
        for field in desc.fields:
            if field.type == FieldDescriptor.TYPE_ENUM and not field.is_repeated:
                for value in field.enum_type.values:
                    if value.number and not any(getattr(m, field.name) == value.number for m in messages):
                        problems.append(f'{desc.full_name}.{field.name}: {value.name} in no case')
    return problems


# --- Commands ---------------------------------------------------------------------------------------------

def short_name(full_name):
    return full_name[len(PACKAGE) + 1:] if full_name.startswith(PACKAGE + '.') else full_name


def generate(outdir):
    outdir.mkdir(parents=True, exist_ok=True)
    cases = all_cases()
    problems = coverage_problems(cases)
    if problems:
        print('coverage incomplete:\n  ' + '\n  '.join(problems), file=sys.stderr)
        return 1
    manifest = []
    for case in cases:
        stem = f'{short_name(case.type)}.{case.case}'
        canonical = json_format.MessageToJson(case.message)
        entry = {'type': case.type, 'case': case.case}
        if case.input_json is None:
            (outdir / f'{stem}.json').write_text(canonical, encoding='utf-8')
            (outdir / f'{stem}.binpb').write_bytes(case.message.SerializeToString(deterministic=True))
            entry.update(json=f'{stem}.json', binpb=f'{stem}.binpb', expected_json=f'{stem}.json')
        else:
            (outdir / f'{stem}.json').write_text(case.input_json, encoding='utf-8')
            (outdir / f'{stem}.expected.json').write_text(canonical, encoding='utf-8')
            entry.update(json=f'{stem}.json', binpb=None, expected_json=f'{stem}.expected.json')
        manifest.append(entry)
    (outdir / 'manifest.json').write_text(json.dumps(manifest, indent=1) + '\n', encoding='utf-8')
    types = {case.type for case in cases}
    lenient = sum(1 for case in cases if case.input_json is not None)
    print(f'a2a-sdk {importlib.metadata.version("a2a-sdk")} (protobuf {importlib.metadata.version("protobuf")}): '
          f'{len(cases)} cases for {len(types)} message types of {PACKAGE} '
          f'({len(cases) - lenient} JSON + binary, {lenient} lenient JSON input) in {outdir}')
    return 0


def has_unknown_fields(message):
    known = type(message)()
    known.CopyFrom(message)
    known.DiscardUnknownFields()
    return known.SerializeToString(deterministic=True) != message.SerializeToString(deterministic=True)


def compare(label, expected, actual):
    """Why `actual`, parsed from our output, is not the message the SDK built; empty when it is."""
    if expected == actual:
        if has_unknown_fields(actual):
            return [f'{label}: holds fields the SDK does not know']
        return []
    details = differences(json_format.MessageToDict(expected), json_format.MessageToDict(actual))
    if not details and has_unknown_fields(actual):
        details = ['holds fields the SDK does not know']
    if not details:
        details = [f'SDK {expected.SerializeToString(deterministic=True).hex()[:400]}, '
                   f'ours {actual.SerializeToString(deterministic=True).hex()[:400]} (binary, hex)']
    return [f'{label}: parses to a different message: ' + '; '.join(details[:8])]


def check(indir):
    expected = {(case.type, case.case): case for case in all_cases()}
    entries = json.loads((indir / 'manifest.json').read_text(encoding='utf-8'))
    failures = []
    passed = 0
    declined = 0
    seen = set()
    for entry in entries:
        key = (entry['type'], entry['case'])
        problems = []
        case = expected.get(key)
        if case is None:
            problems.append('no such case among the SDK vectors')
        elif key in seen:
            problems.append('listed twice in the manifest')
        elif entry.get('declined'):
            # The implementation states why it does not reproduce this case; the Rust side decides
            # which reasons are acceptable. It is neither passed nor failed here, only accounted for.
            seen.add(key)
            declined += 1
            continue
        else:
            seen.add(key)
            cls = type(case.message)
            try:
                ours = json_format.Parse((indir / entry['json']).read_text(encoding='utf-8'), cls())
                problems += compare('json', case.message, ours)
            except (json_format.ParseError, ValueError) as error:
                problems.append(f'json: the SDK rejects our JSON: {error}')
            if entry.get('binpb') is None:
                problems.append('binpb: no binary output listed')
            else:
                data = (indir / entry['binpb']).read_bytes()
                ours = cls()
                try:
                    ours.ParseFromString(data)
                    problems += compare('binpb', case.message, ours)
                except DecodeError as error:
                    problems.append(f'binpb: the SDK cannot decode our bytes: {error}')
        if problems:
            failures.append(f'FAIL {key[0]} {key[1]}: ' + ' | '.join(problems))
        else:
            passed += 1
    for key in expected:
        if key not in seen:
            failures.append(f'FAIL {key[0]} {key[1]}: missing from our manifest')
    for failure in failures:
        print(failure)
    if declined:
        print(f'{declined} declined by the implementation, with reasons in the manifest')
    print(f'{passed} passed, {len(failures)} failed')
    return 1 if failures else 0


def check_versions():
    """Refuses to run with other versions than requirements.txt pins: the vectors depend on them."""
    wrong = []
    for line in (HERE / 'requirements.txt').read_text().splitlines():
        requirement = line.split('#', 1)[0].strip()
        if not requirement:
            continue
        name, _, version = requirement.partition('==')
        installed = importlib.metadata.version(name)
        if installed != version:
            wrong.append(f'{name} {installed} is installed, requirements.txt pins {version}')
    if wrong:
        sys.exit('sdk_vectors.py: ' + '; '.join(wrong))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    commands = parser.add_subparsers(dest='command', required=True)
    generate_parser = commands.add_parser('generate', help='write the SDK vectors and manifest.json')
    generate_parser.add_argument('outdir', type=Path)
    check_parser = commands.add_parser('check', help='judge the Rust outputs listed in INDIR/manifest.json')
    check_parser.add_argument('indir', type=Path)
    for command in (generate_parser, check_parser):
        command.add_argument('--package', choices=sorted(PACKAGES), default='v1',
                             help='v1: lf.a2a.v1 (default); v0_3: a2a.v1, the v0.3 gRPC binding')
    args = parser.parse_args()
    sys.stdout.reconfigure(encoding='utf-8', errors='backslashreplace')
    check_versions()
    select_package(args.package)
    if args.command == 'generate':
        return generate(args.outdir)
    return check(args.indir)


if __name__ == '__main__':
    sys.exit(main())
