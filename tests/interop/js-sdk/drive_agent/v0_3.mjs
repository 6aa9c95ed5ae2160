// The A2A v0.3 checks of drive_agent.mjs: the JS SDK's v0.3 compatibility client (the transport
// factories with `legacyCompat`, which pick LegacyJsonRpcTransport, LegacyRestTransport or
// LegacyGrpcTransport for an interface of version 0.3) on every v0.3 interface the agent declares.
//
// How the client finds those interfaces (`from`):
// - `interfaces`: the v1 card's `supportedInterfaces` entries of protocolVersion 0.3, read by the
//   SDK's v1 card resolver (the client is given them: with a v1 interface beside, its factory
//   always prefers 1.0);
// - `card`: the card's v0.3 fields (`url`, `preferredTransport`, `additionalInterfaces`,
//   `protocolVersion`), fetched as a v0.3 client does (no A2A-Version header) and read by the SDK's
//   own v0.3 card parser (parseLegacyAgentCard), which is how a v0.3-only client finds an agent.

import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  withA2AExtensions,
} from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import {
  ExtendedAgentCardNotConfiguredError,
  JsonRpcTransportError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { assert, assertEqual, check, expectError } from './checks.mjs';
import { commonErrorChecks } from './errors.mjs';
import { operationChecks } from './operations.mjs';
import { EXTENDED_CARD_TOKEN, REQUIRED_EXTENSION } from './v1.mjs';

const VERSION = '0.3';
const legacy = { legacyCompat: { enabled: true } };

/** A factory of the SDK's v0.3-capable transports, preferring `binding`. */
function legacyFactory(binding) {
  return new ClientFactory({
    transports: [
      new JsonRpcTransportFactory(legacy),
      new RestTransportFactory(legacy),
      new GrpcTransportFactory(legacy),
    ],
    preferredTransports: [binding],
  });
}

const isV0_3 = (i) => /^0\.3(\.|$)/.test(i.protocolVersion ?? '');

/** The agent's card with only its v0.3 interfaces, found the way `from` says. */
export async function legacyCard(baseUrl, from) {
  if (from === 'card') {
    const response = await fetch(new URL('/.well-known/agent-card.json', baseUrl));
    const raw = await response.json();
    assert(typeof raw.url === 'string', 'the card has no v0.3 `url` (§3.6.2: no A2A-Version reads as 0.3)', Object.keys(raw));
    const card = parseLegacyAgentCard(raw);
    return { ...card, supportedInterfaces: card.supportedInterfaces.filter(isV0_3) };
  }
  const card = await new DefaultAgentCardResolver().resolve(baseUrl);
  return { ...card, supportedInterfaces: card.supportedInterfaces.filter(isV0_3) };
}

/** Runs the v0.3 checks on every v0.3 interface of the agent's card. */
export async function driveV0_3(agentUrl, minimalUrl, webhook, created, from) {
  let card;
  await check('card', VERSION, `card: the v0.3 interfaces found from ${from === 'card' ? 'the v0.3 card fields' : 'supportedInterfaces'}`, async () => {
    card = await legacyCard(agentUrl, from);
    assert(card.supportedInterfaces.length > 0, 'no v0.3 interface');
  });
  if (!card) return;
  const bindings = [...new Set(card.supportedInterfaces.map((i) => i.protocolBinding.toUpperCase()))];
  for (const binding of bindings) {
    await driveBinding(binding, card, agentUrl, minimalUrl, webhook, created, from);
  }
}

async function driveBinding(binding, card, agentUrl, minimalUrl, webhook, created, from) {
  const run = (name, body) => check(binding, VERSION, name, body);
  let client;
  await run('card: the factory picks the SDK\'s v0.3 transport for this binding', async () => {
    client = await legacyFactory(binding).createFromAgentCard(card);
    assertEqual([client.transport.protocolName.toUpperCase(), client.protocolVersion], [binding, '0.3'], 'transport');
    assert(client.transport.constructor.name.includes('Legacy'), 'a Legacy* transport', client.transport.constructor.name);
  });
  if (!client) return;

  const listRefusal = async (c) => {
    // The SDK refuses before any request; how differs by binding (JSON-RPC: a -32601 envelope error).
    if (binding === 'JSONRPC') {
      const error = await expectError(() => c.listTasks({ tenant: '' }), JsonRpcTransportError);
      assertEqual(error.envelopeCode, -32601, 'the refusal\'s code');
    } else {
      await expectError(() => c.listTasks({ tenant: '' }), UnsupportedOperationError);
    }
  };
  await operationChecks({ binding, version: VERSION, client, webhook, created, listTasks: false, listRefusal, run });

  await run('GetExtendedAgentCard (agent/getAuthenticatedExtendedCard): with the bearer token', async () => {
    const authorized = await legacyFactory(binding).createFromAgentCard(card);
    const extended = await authorized.getAgentCard({
      serviceParameters: { Authorization: `Bearer ${EXTENDED_CARD_TOKEN}` },
    });
    assert(extended.skills.some((s) => s.id === 'book-room'), 'book-room on the extended card', extended.skills.map((s) => s.id));
  });

  // A stream's error is the stream's one event on JSON-RPC; on HTTP+JSON and gRPC it is the call's
  // answer (an HTTP status, a gRPC status), which the SDK raises as the typed error itself.
  await commonErrorChecks(client, run, binding === 'JSONRPC');
  await run('error InvalidParams: GetTask with an empty id (the SDK names it RequestMalformedError)', async () => {
    await expectError(() => client.getTask({ tenant: '', id: '' }), RequestMalformedError);
  });

  let minimal;
  await run('card: the minimal agent\'s v0.3 interface', async () => {
    const minimalCard = await legacyCard(minimalUrl, from);
    minimal = await legacyFactory(binding).createFromAgentCard(minimalCard);
    assertEqual(minimal.protocolVersion, '0.3', 'version');
  });
  if (!minimal) return;
  const withExtension = { serviceParameters: {} };
  withA2AExtensions(REQUIRED_EXTENSION)(withExtension.serviceParameters);
  await run('error PushNotificationNotSupported: the server over the wire', async () => {
    const config = { tenant: '', id: 'p', taskId: 'x', url: `${webhook.url}/never`, token: '', authentication: undefined };
    // The Client refuses from the card before any request, so the v0.3 transport is called itself,
    // with the headers a v0.3 client sends.
    const headers = { 'A2A-Version': '0.3', 'X-A2A-Extensions': REQUIRED_EXTENSION };
    await expectError(
      () => minimal.transport.createTaskPushNotificationConfig(config, { serviceParameters: headers }),
      PushNotificationNotSupportedError,
    );
  });
  await run('error AuthenticatedExtendedCardNotConfigured: on the minimal agent', async () => {
    await expectError(() => minimal.getAgentCard(withExtension), ExtendedAgentCardNotConfiguredError);
  });
}
