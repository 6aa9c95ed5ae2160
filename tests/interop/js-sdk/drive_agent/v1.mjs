// The A2A v1.0 checks of drive_agent.mjs: the JS SDK's ClientFactory resolves the agent's card from
// the well-known path and builds its client over one binding (JSON-RPC, HTTP+JSON or gRPC); every
// operation is then made through that client and judged by what the SDK returns or raises.

import {
  ClientFactory,
  JsonRpcTransportFactory,
  RestTransportFactory,
  withA2AExtensions,
} from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import {
  ExtendedAgentCardNotConfiguredError,
  ExtensionSupportRequiredError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  VersionNotSupportedError,
} from '@a2a-js/sdk/errors';
import { assert, assertEqual, check, expectError } from './checks.mjs';
import { commonErrorChecks } from './errors.mjs';
import { operationChecks } from './operations.mjs';

export const EXTENDED_CARD_TOKEN = 'example-extended-card-token';
export const REQUIRED_EXTENSION = 'https://example.com/extensions/required/v1';

/** A ClientFactory that speaks every binding the SDK has, preferring `binding`. */
function factoryFor(binding) {
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory(), new RestTransportFactory(), new GrpcTransportFactory()],
    preferredTransports: [binding],
  });
}

/**
 * Runs every v1 check over `binding` against the agent at `agentUrl` (and the minimal agent at
 * `minimalUrl`: push notifications off, no extended card, one required extension). `created` maps
 * each binding driven so far to a task it made (the store is one for every binding).
 */
export async function driveV1(binding, agentUrl, minimalUrl, webhook, created) {
  const version = '1.0';
  const run = (name, body) => check(binding, version, name, body);
  let client;
  await run('card: the factory resolves the well-known card and picks this binding, v1.0', async () => {
    client = await factoryFor(binding).createFromUrl(agentUrl);
    assertEqual([client.transport.protocolName, client.protocolVersion], [binding, '1.0'], 'transport');
  });
  if (!client) return;

  await operationChecks({ binding, version, client, webhook, created, listTasks: true, run });

  await run(`GetExtendedAgentCard: with the bearer token, the extended card${binding === 'GRPC' ? ' (the SDK\'s gRPC decoder drops map entries with an empty message value, against protobuf\'s map encoding)' : ''}; refused without`, async () => {
    // A fresh client each time: getAgentCard replaces the client's card with what it fetched.
    const authorized = await factoryFor(binding).createFromUrl(agentUrl);
    const extended = await authorized.getAgentCard({
      serviceParameters: { Authorization: `Bearer ${EXTENDED_CARD_TOKEN}` },
    });
    assertEqual(extended.skills.map((s) => s.id), ['find-hotels', 'route-planner', 'book-room'], 'skills');
    assertEqual(extended.documentationUrl, 'https://a2a-protocol.org/', 'documentationUrl');
    const bearer = extended.securitySchemes.bearer?.scheme;
    assertEqual([bearer?.$case, bearer?.value.scheme], ['httpAuthSecurityScheme', 'Bearer'], 'the bearer scheme');
    // Over gRPC the SDK's decoder drops a map entry whose value is absent, which is how prost (and
    // any encoder skipping defaults) writes an empty message value (`bearer: StringList{}`, no
    // scopes). The proto3 language guide (Maps, backwards compatibility) defines a map entry as a
    // message of key 1 and value 2, whose absent value is the default: the entry should stay.
    // Asserted as the SDK does it: the bearer requirement reads as an empty one.
    const requirements = binding === 'GRPC' ? [[], []] : [['bearer'], []];
    assertEqual(extended.securityRequirements.map((r) => Object.keys(r.schemes)), requirements, 'requirements');
    const anonymous = await factoryFor(binding).createFromUrl(agentUrl);
    let refused = false;
    try {
      await anonymous.getAgentCard();
    } catch {
      refused = true; // an HTTP 401 or UNAUTHENTICATED, in the SDK's own way per binding
    }
    assert(refused, 'the extended card was served without the token');
  });

  await errorChecks(binding, client, minimalUrl, run);
}

/** The A2A errors (§3.3.2, §5.4) as the SDK's client raises them over this binding. */
async function errorChecks(binding, client, minimalUrl, run) {
  await commonErrorChecks(client, run);
  await run('error InvalidParams: ListTasks pageSize 500 (the SDK names it RequestMalformedError)', async () => {
    const error = await expectError(
      () => client.listTasks({ tenant: '', contextId: '', status: 0, pageSize: 500, pageToken: '', statusTimestampAfter: undefined }),
      RequestMalformedError,
    );
    assert(/pageSize|page_size/.test(error.message) || JSON.stringify(error.data ?? '').includes('pageSize'),
      'the error names pageSize', error.message);
  });
  if (binding !== 'HTTP+JSON') {
    // An empty id leaves HTTP+JSON's path (/tasks/{id}) without a route.
    await run('error InvalidParams: GetTask with an empty id', async () => {
      await expectError(() => client.getTask({ tenant: '', id: '' }), RequestMalformedError);
    });
  }
  await run('error VersionNotSupported: A2A-Version 9.0 (§3.6.2; sent through the transport, as the client pins 1.0)', async () => {
    await expectError(
      () => client.transport.getTask({ tenant: '', id: 'x' }, { serviceParameters: { 'A2A-Version': '9.0' } }),
      VersionNotSupportedError,
    );
  });

  let minimal;
  await run('card: the minimal agent (no push, no extended card, a required extension) resolves', async () => {
    minimal = await factoryFor(binding).createFromUrl(minimalUrl);
    assertEqual(minimal.transport.protocolName, binding, 'transport');
  });
  if (!minimal) return;
  const withExtension = { serviceParameters: {} };
  withA2AExtensions(REQUIRED_EXTENSION)(withExtension.serviceParameters);
  const config = { tenant: '', id: 'p', taskId: 'x', url: 'http://127.0.0.1:9/never', token: '', authentication: undefined };
  await run('error PushNotificationNotSupported: the client refuses from the card, the server over the wire', async () => {
    // The SDK's client checks capabilities.pushNotifications itself before any request ...
    await expectError(() => minimal.createTaskPushNotificationConfig(config, withExtension), PushNotificationNotSupportedError);
    // ... so the server's own answer is read through the SDK's transport.
    await expectError(
      () => minimal.transport.createTaskPushNotificationConfig(config, withVersion(withExtension)),
      PushNotificationNotSupportedError,
    );
  });
  await run('error ExtendedAgentCardNotConfigured: GetExtendedAgentCard on the minimal agent', async () => {
    await expectError(() => minimal.getAgentCard(withExtension), ExtendedAgentCardNotConfiguredError);
  });
  await run('error ExtensionSupportRequired: a call without the required extension', async () => {
    await expectError(() => minimal.getTask({ tenant: '', id: 'x' }), ExtensionSupportRequiredError);
  });
}

/** `options` with `A2A-Version: 1.0` added, as the client adds it (the transport alone does not). */
function withVersion(options) {
  return { ...options, serviceParameters: { ...options.serviceParameters, 'A2A-Version': '1.0' } };
}
