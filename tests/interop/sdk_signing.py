"""The official A2A Python SDK's agent card signing (`a2a-sdk[signing]`, a2a.utils.signing), as an oracle.

Usage: sdk_signing.py COMMAND < request.json > response.json, one process per batch:

- `canonicalize`: request {"cards": [<card JSON>...]}; response, per card, {"canonical": <text>} with the
  SDK's canonical form (the JWS payload it signs), or {"error": <class: message>} when the SDK refuses
  the card (parse or canonicalization).
- `canonicalize-as-fetched`: the same, the cards read as the SDK's client reads a fetched card
  (`parse_agent_card`, which converts a v0.3 card to v1 first).
- `sign`: request {"keys": [{"alg", "kid", "pem"}...], "cards": [...]}; response, per key, the list of
  the cards signed by the SDK's `create_agent_card_signer` (protected header alg, kid, typ JOSE, jku),
  as ProtoJSON.
- `verify`: request {"jwks": <JWK Set>, "algorithms": [...], "cards": [...]}; response, per card,
  {"ok": true} or {"error": <class: message>} from the SDK's `create_signature_verifier`, its key
  provider looking the header's `kid` up in the JWK Set.

Used by tests/tests/suite/signing_v1.rs. Refuses to run with other versions than the pinned ones.
"""

import json
import logging
import sys

from importlib.metadata import version

from google.protobuf import json_format

from a2a.types import AgentCard
from a2a.utils import signing

PINNED = {'a2a-sdk': '1.3.0', 'PyJWT': '2.15.1', 'cryptography': '50.0.2'}

# The nesting the canonicalizer itself refuses (128) must reach it: the JSON parser's own default
# limit (100) would refuse first and hide the SDK's rule.
PARSE_DEPTH = 1000


def parse(card):
    return json_format.ParseDict(
        card, AgentCard(), ignore_unknown_fields=True, max_recursion_depth=PARSE_DEPTH
    )


def describe(error):
    return f'{type(error).__name__}: {error}'


def canonicalize(request):
    results = []
    for card in request['cards']:
        try:
            results.append({'canonical': signing._canonicalize_agent_card(parse(card))})
        except (json_format.ParseError, ValueError, RecursionError) as error:
            results.append({'error': describe(error)})
    return results


def canonicalize_as_fetched(request):
    # The SDK's client reads a fetched card with parse_agent_card, which turns a v0.3 card into v1
    # first; its verifier then canonicalizes that v1 card.
    from a2a.client.card_resolver import parse_agent_card

    results = []
    for card in request['cards']:
        try:
            results.append({'canonical': signing._canonicalize_agent_card(parse_agent_card(card))})
        except (json_format.ParseError, ValueError, RecursionError) as error:
            results.append({'error': describe(error)})
    return results


def sign(request):
    signed = []
    for key in request['keys']:
        signer = signing.create_agent_card_signer(
            signing_key=key['pem'].encode(),
            protected_header={
                'alg': key['alg'],
                'kid': key['kid'],
                'typ': 'JOSE',
                'jku': 'https://agent.example/.well-known/jwks.json',
            },
        )
        signed.append([json_format.MessageToDict(signer(parse(card))) for card in request['cards']])
    return signed


def verify(request):
    from jwt import PyJWK
    from jwt.exceptions import InvalidKeyError

    keys = {key['kid']: PyJWK(key) for key in request['jwks']['keys']}

    def key_provider(kid, jku):
        if kid not in keys:
            # A PyJWTError, so the SDK goes on to the card's next signature.
            raise InvalidKeyError(f'unknown key {kid!r}')
        return keys[kid]

    verifier = signing.create_signature_verifier(key_provider, request['algorithms'])
    results = []
    for card in request['cards']:
        try:
            verifier(parse(card))
            results.append({'ok': True})
        except (signing.SignatureVerificationError, json_format.ParseError) as error:
            results.append({'error': describe(error)})
    return results


def main():
    # The SDK logs a warning for every card missing a REQUIRED field; generated cards often do.
    logging.disable(logging.WARNING)
    for name, pinned in PINNED.items():
        if version(name) != pinned:
            sys.exit(f'{name} {version(name)} is installed; these tests compare with {pinned}')
    command = {
        'canonicalize': canonicalize,
        'canonicalize-as-fetched': canonicalize_as_fetched,
        'sign': sign,
        'verify': verify,
    }[sys.argv[1]]
    json.dump(command(json.load(sys.stdin)), sys.stdout, ensure_ascii=False)


if __name__ == '__main__':
    main()
