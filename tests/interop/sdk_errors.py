"""Asks the official A2A Python SDK how it writes and reads every A2A v1 error.

`sdk_errors.py generate DIR` prints, for each error class the SDK maps to a JSON-RPC code, its mapping
(JSON-RPC code, HTTP status, gRPC status, ErrorInfo reason) and the JSON-RPC error object and REST error
body its servers write for an instance with a message and data; then, for each of the five JSON-RPC
standard errors, the bare object its JSON-RPC server writes when it has nothing to add (its
`a2a.server.jsonrpc_models` classes: a body that is not JSON, an unknown method, an unforeseen failure),
marked `"bare": true`.

`sdk_errors.py read DIR` reads DIR/ours.json, a list of {"jsonrpc": <error object>, "rest": <body>}, and
prints what the SDK's JSON-RPC and REST clients make of each: the error class's JSON-RPC code, the message
and the data.

`sdk_errors.py grpc DIR` reads DIR/ours_grpc.json, a list of {"bin": <hex of our encoded google.rpc.Status>,
"json": <the same status as ProtoJSON>}, and prints, per entry, the status protobuf's own library decodes
from our bytes (as ProtoJSON), and the bytes it encodes from the JSON (as hex). The SDK's gRPC binding sends
exactly such a status in `grpc-status-details-bin` (a2a.utils.grpc_status).

Used by tests/tests/errors_interop_v1.rs as the reference for `a2a_types::errors`.
"""

import json
import os
import sys

from google.protobuf import json_format
from google.rpc import error_details_pb2  # noqa: F401  (registers ErrorInfo and BadRequest for Any)
from google.rpc import status_pb2

from a2a.client.transports.jsonrpc import JsonRpcTransport
from a2a.client.transports.rest import _parse_rest_error
from a2a.server import jsonrpc_models
from a2a.server.request_handlers.response_helpers import build_error_response
from a2a.utils.error_handlers import build_rest_error_payload
from a2a.utils.errors import (
    A2A_ERROR_MAPPING,
    JSON_RPC_ERROR_CODE_MAP,
    A2AError,
    InvalidParamsError,
)


def sample(error_class):
    """An instance as a server raises it: a specific message and some context as data."""
    if error_class is InvalidParamsError:
        data = {
            'errors': [
                {'field': 'message.parts', 'message': 'Field is required.'},
                {'field': 'message.role', 'message': 'Field is required.'},
            ]
        }
    else:
        data = {'taskId': 'task-123', 'attempt': 2}
    return error_class(f'{error_class.__name__} for task-123', data=data)


def generate():
    out = []
    for error_class, code in JSON_RPC_ERROR_CODE_MAP.items():
        mapping = A2A_ERROR_MAPPING.get(error_class)
        error = sample(error_class)
        out.append(
            {
                'name': error_class.__name__,
                'code': code,
                'mapping': None
                if mapping is None
                else {
                    'http': mapping.http_code,
                    'grpc': mapping.grpc_status,
                    'reason': mapping.reason,
                },
                'message': error.message,
                'data': error.data,
                'jsonrpc': attempt(lambda: build_error_response('req-1', error)['error']),
                'rest': attempt(lambda: build_rest_error_payload(error)),
            }
        )
    for model in (
        jsonrpc_models.JSONParseError,
        jsonrpc_models.InvalidRequestError,
        jsonrpc_models.MethodNotFoundError,
        jsonrpc_models.InvalidParamsError,
        jsonrpc_models.InternalError,
    ):
        error = model(message=f'{model.__name__} without details')
        out.append(
            {
                'name': f'jsonrpc_models.{model.__name__}',
                'code': error.code,
                'bare': True,
                'message': error.message,
                'jsonrpc': attempt(lambda: build_error_response('req-1', error)['error']),
            }
        )
    return out


def attempt(write):
    """What the SDK writes, or why it cannot write it (it has no JSON-RPC model for every code)."""
    try:
        return {'ok': write()}
    except Exception as error:  # noqa: BLE001
        return {'failed': f'{type(error).__name__}: {error}'.splitlines()[0]}


def describe(error):
    if not isinstance(error, A2AError):
        return {'unmapped': f'{type(error).__name__}: {error}'}
    return {
        'code': JSON_RPC_ERROR_CODE_MAP.get(type(error)),
        'message': error.message,
        'data': error.data,
    }


def read(directory):
    with open(os.path.join(directory, 'ours.json')) as f:
        ours = json.load(f)
    out = []
    for entry in ours:
        # The client's reader uses nothing of the transport instance.
        from_jsonrpc = JsonRpcTransport._create_jsonrpc_error(None, entry['jsonrpc'])
        from_rest = _parse_rest_error(entry['rest'], 'fallback')
        out.append(
            {
                'jsonrpc': describe(from_jsonrpc),
                'rest': describe(from_rest) if from_rest is not None else None,
            }
        )
    return out


def grpc(directory):
    with open(os.path.join(directory, 'ours_grpc.json')) as f:
        ours = json.load(f)
    out = []
    for entry in ours:
        status = status_pb2.Status.FromString(bytes.fromhex(entry['bin']))
        encoded = json_format.ParseDict(entry['json'], status_pb2.Status())
        out.append(
            {
                'parsed': json_format.MessageToDict(status),
                'encoded': encoded.SerializeToString(deterministic=True).hex(),
            }
        )
    return out


def main():
    command, directory = sys.argv[1], sys.argv[2]
    if command == 'generate':
        result = generate()
    elif command == 'read':
        result = read(directory)
    elif command == 'grpc':
        result = grpc(directory)
    else:
        raise SystemExit(f'unknown command {command}')
    json.dump(result, sys.stdout)


if __name__ == '__main__':
    main()
