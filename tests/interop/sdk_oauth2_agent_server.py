#!/usr/bin/env python3
"""An A2A v1 agent of the official Python SDK behind OpenID Connect bearer tokens, on all three bindings.

    python sdk_oauth2_agent_server.py --issuer ISSUER --audience AUDIENCE [--scope SCOPE]

What our Rust client is proven against when it finds its own credentials (a2a-client/tests/suite/sdk_oauth2.rs).
The SDK 1.3 ships no authentication of its own: its JSON-RPC and REST routes take the caller from
Starlette's `request.user` (which an `AuthenticationMiddleware` sets), its gRPC handler from a
`GrpcServerCallContextBuilder`, and its InMemoryTaskStore keeps each caller's tasks apart by that user's
name. This script supplies those two hooks with one validator of JWT access tokens (PyJWT): signed by a
key of the issuer's JWKS (found through its OpenID Connect discovery document), RS256 only, for ISSUER and
AUDIENCE, not expired (5 s leeway), granting SCOPE. The caller is the token's `sub`.

The card declares two schemes a client may use, either one enough: `oidc` (OpenID Connect, the
provider's discovery URL) and `oauth2` (OAuth 2 client credentials, the provider's token endpoint), each
requiring SCOPE. The card is public; every other request without a valid token is refused: HTTP 401 with
`WWW-Authenticate: Bearer ...` and a body {"error": {"code": 401, "status": "UNAUTHENTICATED",
"message": WHY}}, gRPC `UNAUTHENTICATED` with WHY.

One route for the test, outside authentication: `POST /test/revoke` refuses from then on every token
this server has accepted so far (by `jti`), as an issuer's revocation would; it answers how many.

The agent completes every task at once with the text "done for CALLER". Binds 127.0.0.1 only, on ports
the OS picks, and prints one JSON line once both servers accept connections:
{"url": "http://127.0.0.1:PORT", "grpc": "127.0.0.1:PORT"}. JSON-RPC is at URL/jsonrpc, HTTP+JSON under
URL/rest, the card at URL/.well-known/agent-card.json. Runs until killed or its standard input closes.
"""

import argparse
import asyncio
import json
import logging
import socket
import sys
import urllib.request

import grpc
import jwt
import uvicorn
from starlette.applications import Starlette
from starlette.authentication import AuthCredentials, AuthenticationBackend, AuthenticationError, SimpleUser
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.responses import JSONResponse
from starlette.routing import Route

import a2a.types.a2a_pb2_grpc as a2a_grpc
from a2a.auth.user import User
from a2a.helpers.proto_helpers import new_task, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events.event_queue_v2 import EventQueue
from a2a.server.request_handlers import DefaultRequestHandlerV2
from a2a.server.request_handlers.grpc_handler import DefaultGrpcServerCallContextBuilder, GrpcHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import a2a_pb2
from a2a.types.a2a_pb2 import TaskState

# How far the clocks of the provider and this server may disagree.
CLOCK_LEEWAY_SECONDS = 5


class Refused(Exception):
    """A request whose credentials are missing or not valid; the message says why."""


class TokenValidator:
    """Validates bearer tokens of one issuer for one audience and scope; remembers accepted ones' ids."""

    def __init__(self, issuer: str, audience: str, scope: str):
        discovery_url = f'{issuer}/.well-known/openid-configuration'
        with urllib.request.urlopen(discovery_url, timeout=10) as response:
            discovery = json.load(response)
        if discovery.get('issuer') != issuer:
            raise SystemExit(f'{discovery_url} names issuer {discovery.get("issuer")!r}, not {issuer!r}')
        self.discovery_url = discovery_url
        self.token_endpoint = discovery['token_endpoint']
        self.issuer = issuer
        self.audience = audience
        self.scope = scope
        # Fetches the JWKS on first use and again for a key id it has not seen (a rotated key).
        self.keys = jwt.PyJWKClient(discovery['jwks_uri'], cache_keys=True, timeout=10)
        self.accepted: set[str] = set()
        self.revoked: set[str] = set()

    def caller(self, authorization: str | None) -> str:
        """The caller a request's `Authorization` value names, or Refused."""
        if not authorization:
            raise Refused('no bearer token')
        kind, _, token = authorization.partition(' ')
        if kind.lower() != 'bearer' or not token:
            raise Refused('the Authorization header is not a bearer token')
        try:
            key = self.keys.get_signing_key_from_jwt(token)
            claims = jwt.decode(
                token,
                key.key,
                algorithms=['RS256'],
                audience=self.audience,
                issuer=self.issuer,
                leeway=CLOCK_LEEWAY_SECONDS,
                options={'require': ['exp', 'iat', 'iss', 'aud', 'sub', 'jti']},
            )
        except jwt.PyJWTError as error:
            raise Refused(f'the token is not valid: {error}') from error
        if self.scope not in str(claims.get('scope', '')).split():
            raise Refused(f'the token does not grant the scope {self.scope}')
        if claims['jti'] in self.revoked:
            raise Refused('the token was revoked')
        self.accepted.add(claims['jti'])
        return claims['sub']

    def revoke_accepted(self) -> int:
        """Refuses every token accepted so far; how many."""
        self.revoked |= self.accepted
        return len(self.accepted)


class BearerBackend(AuthenticationBackend):
    """Starlette's authentication hook: the token's subject as `request.user`, the card exempt."""

    def __init__(self, validator: TokenValidator):
        self.validator = validator

    async def authenticate(self, conn):
        path = conn.scope['path']
        if path.startswith('/.well-known/') or path.startswith('/test/'):
            return None
        try:
            caller = self.validator.caller(conn.headers.get('authorization'))
        except Refused as refused:
            raise AuthenticationError(str(refused)) from refused
        return AuthCredentials([self.validator.scope]), SimpleUser(caller)


def refuse_http(conn, error: AuthenticationError) -> JSONResponse:
    """HTTP 401 with the RFC 6750 challenge (an `invalid_token` error when a token was sent)."""
    reason = str(error)
    challenge = 'Bearer' if reason == 'no bearer token' else 'Bearer error="invalid_token"'
    return JSONResponse(
        {'error': {'code': 401, 'status': 'UNAUTHENTICATED', 'message': reason}},
        status_code=401,
        headers={'WWW-Authenticate': challenge},
    )


def authorization_metadata(handler_call_details_or_context) -> str | None:
    """The `authorization` metadata of a gRPC call (from its handler details or its context)."""
    metadata = getattr(handler_call_details_or_context, 'invocation_metadata', None)
    if callable(metadata):
        metadata = metadata()
    for key, value in metadata or ():
        if key.lower() == 'authorization':
            return value if isinstance(value, str) else value.decode()
    return None


class RequireBearerToken(grpc.aio.ServerInterceptor):
    """Refuses gRPC calls without a valid token with `UNAUTHENTICATED`, before the SDK's handler."""

    def __init__(self, validator: TokenValidator):
        self.validator = validator

    async def intercept_service(self, continuation, handler_call_details):
        handler = await continuation(handler_call_details)
        try:
            self.validator.caller(authorization_metadata(handler_call_details))
            return handler
        except Refused as refused:
            reason = str(refused)

        async def refuse(request, context):
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, reason)

        if handler is not None and handler.response_streaming:
            async def refuse_stream(request, context):
                await refuse(request, context)
                yield  # pragma: no cover - abort raises

            return grpc.unary_stream_rpc_method_handler(
                refuse_stream,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return grpc.unary_unary_rpc_method_handler(
            refuse,
            request_deserializer=handler.request_deserializer if handler else None,
            response_serializer=handler.response_serializer if handler else None,
        )


class TokenUser(User):
    """The SDK's user for a caller named by a validated token."""

    def __init__(self, name: str):
        self.name = name

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def user_name(self) -> str:
        return self.name


class GrpcCallerFromToken(DefaultGrpcServerCallContextBuilder):
    """The SDK's gRPC context builder with the token's subject as the user (the interceptor let it in)."""

    def __init__(self, validator: TokenValidator):
        self.validator = validator

    def build_user(self, context) -> User:
        return TokenUser(self.validator.caller(authorization_metadata(context)))


class DoneFor(AgentExecutor):
    """Completes every task at once, naming the caller the SDK handed it."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        if context.current_task is None:
            await event_queue.enqueue_event(
                new_task(context.task_id, context.context_id, TaskState.TASK_STATE_SUBMITTED,
                         history=[context.message])
            )
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        caller = context.call_context.user.user_name
        await updater.complete(updater.new_agent_message([new_text_part(f'done for {caller}')]))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def agent_card(url: str, grpc_target: str, validator: TokenValidator) -> a2a_pb2.AgentCard:
    scope = validator.scope
    return a2a_pb2.AgentCard(
        name='SDK agent behind OpenID Connect',
        description='The official A2A Python SDK server classes, for callers with a token of the provider',
        version='1.0.0',
        supported_interfaces=[
            a2a_pb2.AgentInterface(url=f'{url}/jsonrpc', protocol_binding='JSONRPC', protocol_version='1.0'),
            a2a_pb2.AgentInterface(url=f'{url}/rest', protocol_binding='HTTP+JSON', protocol_version='1.0'),
            a2a_pb2.AgentInterface(url=grpc_target, protocol_binding='GRPC', protocol_version='1.0'),
        ],
        capabilities=a2a_pb2.AgentCapabilities(streaming=True),
        security_schemes={
            'oidc': a2a_pb2.SecurityScheme(
                open_id_connect_security_scheme=a2a_pb2.OpenIdConnectSecurityScheme(
                    open_id_connect_url=validator.discovery_url
                )
            ),
            'oauth2': a2a_pb2.SecurityScheme(
                oauth2_security_scheme=a2a_pb2.OAuth2SecurityScheme(
                    flows=a2a_pb2.OAuthFlows(
                        client_credentials=a2a_pb2.ClientCredentialsOAuthFlow(
                            token_url=validator.token_endpoint,
                            scopes={scope: 'Call this agent'},
                        )
                    )
                )
            ),
        },
        security_requirements=[
            a2a_pb2.SecurityRequirement(schemes={'oidc': a2a_pb2.StringList(list=[scope])}),
            a2a_pb2.SecurityRequirement(schemes={'oauth2': a2a_pb2.StringList(list=[scope])}),
        ],
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[
            a2a_pb2.AgentSkill(id='done', name='Done', description='Completes at once', tags=['test'])
        ],
    )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--issuer', required=True)
    parser.add_argument('--audience', required=True)
    parser.add_argument('--scope', default='a2a.call')
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR, stream=sys.stderr)
    validator = TokenValidator(args.issuer, args.audience, args.scope)

    http_socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    http_socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    http_socket.bind(('127.0.0.1', 0))
    url = f'http://127.0.0.1:{http_socket.getsockname()[1]}'

    grpc_server = grpc.aio.server(interceptors=[RequireBearerToken(validator)])
    grpc_target = f'127.0.0.1:{grpc_server.add_insecure_port("127.0.0.1:0")}'

    card = agent_card(url, grpc_target, validator)
    handler = DefaultRequestHandlerV2(
        agent_executor=DoneFor(),
        task_store=InMemoryTaskStore(),
        agent_card=card,
    )

    async def revoke(request):
        return JSONResponse({'revoked': validator.revoke_accepted()})

    # The test's route first: the SDK's REST routes end with a catch-all.
    routes = (
        [Route('/test/revoke', revoke, methods=['POST'])]
        + create_agent_card_routes(card)
        + create_jsonrpc_routes(handler, rpc_url='/jsonrpc')
        + create_rest_routes(handler, path_prefix='/rest')
    )
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(AuthenticationMiddleware, backend=BearerBackend(validator), on_error=refuse_http)
        ],
    )
    a2a_grpc.add_A2AServiceServicer_to_server(
        GrpcHandler(handler, context_builder=GrpcCallerFromToken(validator)), grpc_server
    )
    await grpc_server.start()

    http_server = uvicorn.Server(uvicorn.Config(app, log_level='warning', lifespan='off'))
    serving = asyncio.create_task(http_server.serve(sockets=[http_socket]))
    while not http_server.started:
        if serving.done():
            serving.result()
            return
        await asyncio.sleep(0.02)
    print(json.dumps({'url': url, 'grpc': grpc_target}), flush=True)

    # Standard input closing means the parent is gone: stop rather than linger.
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    http_server.should_exit = True
    await serving
    await grpc_server.stop(0)


if __name__ == '__main__':
    asyncio.run(main())
