"""Asks the official A2A Python SDK which fields of A2A v1 messages break the spec's requirements.

Reads a JSON list of {"type": "lf.a2a.v1.<Name>", "json": <document>} on standard input, parses each
document with the SDK's protobuf classes (unknown fields ignored) and runs the SDK's own validator
(`a2a.utils.proto_utils.validate_proto_required_fields`). Writes a JSON list with, per document, the
field paths the SDK reports (in its order), or an error string when the SDK cannot parse it.
Used by tests/tests/suite/validate_interop_v1.rs as an oracle for the Rust validation.
"""

import json
import sys

from google.protobuf import json_format

from a2a.types import a2a_pb2
from a2a.utils import proto_utils
from a2a.utils.errors import InvalidParamsError


def sdk_violations(type_name, document):
    cls = getattr(a2a_pb2, type_name.rsplit('.', 1)[-1])
    message = json_format.ParseDict(document, cls(), ignore_unknown_fields=True)
    try:
        proto_utils.validate_proto_required_fields(message)
    except InvalidParamsError as error:
        return [entry['field'] for entry in error.data['errors']]
    return []


def main():
    results = []
    for entry in json.load(sys.stdin):
        try:
            results.append({'fields': sdk_violations(entry['type'], entry['json'])})
        except (json_format.ParseError, AttributeError) as error:
            results.append({'error': str(error)})
    json.dump(results, sys.stdout)


if __name__ == '__main__':
    main()
