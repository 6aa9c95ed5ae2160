"""Drives the Rust example agent, protected by OpenID Connect, with the official A2A Python SDK's
client (a2a-sdk 1.3.0) holding OAuth2 credentials.

Usage: A2A_CLIENT_SECRET=SECRET drive_agent_oauth2.py AGENT_URL CLIENT_ID

AGENT_URL is `a2a-example-agent --oidc-issuer URL --oidc-audience AUD`. The SDK's client has no
token flow of its own, so this script does what a deployment would: it finds the token endpoint
through the scheme the card requires (OpenID Connect discovery, or an OAuth2 client-credentials
flow's token URL), gets an access token by the client-credentials grant (client_secret_post, scope
`a2a.call`) and stores it for that scheme in the SDK's `InMemoryContextCredentialStore`. The SDK's
`AuthInterceptor` then adds `Authorization: Bearer` to every call whose context names the session
holding the credential.

On each binding (JSON-RPC, HTTP+JSON, gRPC), through the SDK's own client:
- with the credential: a message is sent and the task it made is read back;
- the same client in a session without a credential: sending, and reading that task, are refused.

Prints PASS or FAIL per check, one `ANSWER [binding] ...` line per call saying what the agent
answered (the task's state, or the error the SDK raised), and the pass counts per binding. Exits 1
on any failure. Bounded: every check has a timeout, the whole run 60 s. Loopback only.
"""

import os
import time

import httpx

from a2a.client import A2ACardResolver
from a2a.client.auth import AuthInterceptor, InMemoryContextCredentialStore
from a2a.client.client import ClientCallContext
from a2a.types import a2a_pb2 as pb
from a2a.utils.constants import TransportProtocol

import sdk_driver

SECRET_VARIABLE = 'A2A_CLIENT_SECRET'
SCOPE = 'a2a.call'
CALL_TIMEOUT = 20.0
WITH_CREDENTIAL = 'session-with-credential'
WITHOUT_CREDENTIAL = 'session-without-credential'
BINDINGS = [TransportProtocol.JSONRPC.value, TransportProtocol.HTTP_JSON.value, TransportProtocol.GRPC.value]


def answer(binding: str, call: str, what: str) -> None:
    print(f'ANSWER [{binding}] {call}: {what}', flush=True)


async def token_endpoint(http: httpx.AsyncClient, card: pb.AgentCard) -> tuple[str, str]:
    """The name of the scheme the card requires and the token endpoint it leads to."""
    for requirement in card.security_requirements:
        for name in requirement.schemes:
            scheme = card.security_schemes[name]
            if scheme.HasField('open_id_connect_security_scheme'):
                discovery = await http.get(scheme.open_id_connect_security_scheme.open_id_connect_url)
                discovery.raise_for_status()
                return name, discovery.json()['token_endpoint']
            flows = scheme.oauth2_security_scheme.flows if scheme.HasField('oauth2_security_scheme') else None
            if flows is not None and flows.HasField('client_credentials'):
                return name, flows.client_credentials.token_url
    raise AssertionError(f'the card requires no OAuth2 or OpenID Connect scheme: {card.security_requirements}')


async def client_credentials_token(http: httpx.AsyncClient, endpoint: str, client_id: str, secret: str) -> str:
    """An access token by the client-credentials grant."""
    response = await http.post(
        endpoint,
        data={'grant_type': 'client_credentials', 'client_id': client_id, 'client_secret': secret, 'scope': SCOPE},
    )
    assert response.status_code == 200, f'the token endpoint answered {response.status_code}: {response.text}'
    body = response.json()
    assert body.get('token_type', '').lower() == 'bearer', body
    return body['access_token']


def session(name: str) -> ClientCallContext:
    """A fresh call context naming a session of the credential store (fresh because the interceptor
    writes the header it adds into the context it is given)."""
    return ClientCallContext(state={'sessionId': name})


async def expect_refusal(binding: str, call: str, run) -> None:
    """`run()` must raise; what the SDK raised is printed as the agent's answer."""
    try:
        await run()
    except Exception as error:  # noqa: BLE001 - each binding's transport reports a 401 in its own way
        said = f'{type(error).__name__}: {error}'.replace('\n', ' ')
        answer(binding, call, f'refused, the SDK raised {said}')
        # Refused for want of credentials, not for anything else (a 401, or gRPC's UNAUTHENTICATED).
        assert '401' in said or 'UNAUTHENTICATED' in said, f'{call}: refused, but not as unauthenticated: {said}'
        return
    raise AssertionError(f'{call} was served without a credential')


async def drive(binding: str, card: pb.AgentCard, credentials: InMemoryContextCredentialStore) -> None:
    client = sdk_driver.make_client(card, binding, streaming=False, interceptors=[AuthInterceptor(credentials)])
    made: list[str] = []

    def request(label: str) -> pb.SendMessageRequest:
        message_id = f'{label}-{binding}-{time.monotonic_ns()}'
        return pb.SendMessageRequest(
            message=pb.Message(message_id=message_id, role=pb.Role.ROLE_USER, parts=[pb.Part(text='Find a hotel in Porto')])
        )

    async def send_and_read_back():
        events = [e async for e in client.send_message(request('oauth2'), context=session(WITH_CREDENTIAL))]
        assert len(events) == 1 and events[0].HasField('task'), f'one task, not {events}'
        task = events[0].task
        answer(binding, 'SendMessage with the credential', f'task {task.id} {pb.TaskState.Name(task.status.state)}')
        read = await client.get_task(pb.GetTaskRequest(id=task.id), context=session(WITH_CREDENTIAL))
        assert read.id == task.id, read
        answer(binding, 'GetTask with the credential', f'task {read.id} {pb.TaskState.Name(read.status.state)}')
        made.append(task.id)

    async def refused_without_credential():
        await expect_refusal(
            binding,
            'SendMessage without a credential',
            lambda: client.send_message(request('anonymous'), context=session(WITHOUT_CREDENTIAL)).__anext__(),
        )
        assert made, 'no task was made with the credential to read back'
        await expect_refusal(
            binding,
            'GetTask without a credential',
            lambda: client.get_task(pb.GetTaskRequest(id=made[0]), context=session(WITHOUT_CREDENTIAL)),
        )

    await sdk_driver.check(binding, 'send and read back with the stored OAuth2 credential', send_and_read_back, CALL_TIMEOUT)
    await sdk_driver.check(binding, 'refused in a session without a credential', refused_without_credential, CALL_TIMEOUT)
    await client.close()


async def main(agent_url: str, client_id: str) -> None:
    secret = os.environ.get(SECRET_VARIABLE)
    assert secret, f'{SECRET_VARIABLE} names the client secret'
    credentials = InMemoryContextCredentialStore()
    async with httpx.AsyncClient(timeout=CALL_TIMEOUT) as http:
        card = await A2ACardResolver(http, agent_url).get_agent_card()
        scheme, endpoint = await token_endpoint(http, card)
        token = await client_credentials_token(http, endpoint, client_id, secret)
    print(f'the card requires the scheme {scheme!r}; a token of {client_id!r} from {endpoint}', flush=True)
    await credentials.set_credentials(WITH_CREDENTIAL, scheme, token)
    for binding in BINDINGS:
        await drive(binding, card, credentials)


if __name__ == '__main__':
    sdk_driver.run(main, 'usage: A2A_CLIENT_SECRET=SECRET drive_agent_oauth2.py AGENT_URL CLIENT_ID', 60)
