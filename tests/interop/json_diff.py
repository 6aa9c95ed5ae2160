"""Where two JSON values differ, as readable paths: the failure messages of the interop scripts
(sdk_vectors.py, sdk_jsonrpc_vectors.py), which import it from beside themselves."""

import json
import math


def _short(value):
    return json.dumps(value, ensure_ascii=False)[:200]


def _same_scalar(expected, actual, numbers_by_value):
    if numbers_by_value:
        # 2 equals 2.0, but a boolean is never a number.
        return expected == actual and isinstance(expected, bool) == isinstance(actual, bool)
    if expected != actual or type(expected) is not type(actual):
        return False
    # -0.0 == 0.0 in Python; the sign is part of the value on the wire.
    return not isinstance(expected, float) or math.copysign(1, expected) == math.copysign(1, actual)


def differences(expected, actual, numbers_by_value=False, path=''):
    """Paths where `actual` (ours) differs from `expected` (the SDK's). With numbers_by_value, numbers
    compare as numbers (2 equals 2.0); otherwise their types must match too and -0.0 differs from 0.0."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in sorted(expected.keys() | actual.keys()):
            if key not in actual:
                out.append(f'{path}.{key}: missing in ours (SDK {_short(expected[key])})')
            elif key not in expected:
                out.append(f'{path}.{key}: only in ours ({_short(actual[key])})')
            else:
                out.extend(differences(expected[key], actual[key], numbers_by_value, f'{path}.{key}'))
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        out = []
        for index, (e, a) in enumerate(zip(expected, actual)):
            out.extend(differences(e, a, numbers_by_value, f'{path}[{index}]'))
        return out
    if _same_scalar(expected, actual, numbers_by_value):
        return []
    return [f'{path or "."}: SDK {_short(expected)}, ours {_short(actual)}']
