// Drives an A2A agent with the official JS SDK's client (@a2a-js/sdk 1.3.0) as an outside judge:
// its card resolver and client factory, its JSON-RPC, HTTP+JSON and gRPC transports (A2A v1.0), and
// its v0.3 compatibility transports on every v0.3 interface the agent declares.
//
// Usage: node drive_agent.mjs AGENT_URL MINIMAL_AGENT_URL [--v0_3-from card|interfaces]
//
// AGENT_URL is the example agent (examples/a2a-example-agent, its resubscribe delay short);
// MINIMAL_AGENT_URL an instance with push notifications off, no extended card configured and one
// required extension, for the errors the first never gives. `--v0_3-from` says how the v0.3 client
// finds its interfaces (drive_agent/v0_3.mjs; from the card's v0.3 fields unless told); the checks
// read on the wire are in drive_agent/wire.mjs.
//
// Prints one JSON line per check ({binding, version, check, ok, detail}), then one summary line per
// binding and version ({summary: true, binding, version, passed, total}). Exits 1 on any failure.
// Bounded: every check has a time limit, the whole run 150 s. Loopback only (the webhook receiver
// listens on 127.0.0.1). Used by examples/a2a-example-agent/tests/js_sdk_client.rs.
//
// Where the SDK departs from the specification, the check says so with the section and asserts
// what the SDK does, so it fails when the SDK changes.

import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { fromJsonRpcErrorResponse, RequestMalformedError } from '@a2a-js/sdk/errors';
import { assert, assertEqual, check, record, summarize } from './drive_agent/checks.mjs';
import { wireChecks } from './drive_agent/wire.mjs';
import { driveV0_3 } from './drive_agent/v0_3.mjs';
import { driveV1 } from './drive_agent/v1.mjs';
import { Webhook } from './drive_agent/webhook.mjs';

const WHOLE_RUN_SECONDS = 150;
const V1_BINDINGS = ['JSONRPC', 'HTTP+JSON', 'GRPC'];

function usage() {
  console.error(
    'usage: node drive_agent.mjs AGENT_URL MINIMAL_AGENT_URL [--v0_3-from card|interfaces]',
  );
  process.exit(2);
}

function parseArguments(args) {
  const [agentUrl, minimalUrl, ...rest] = args;
  if (!agentUrl || !minimalUrl || agentUrl.startsWith('--') || minimalUrl.startsWith('--')) usage();
  const options = { agentUrl, minimalUrl, from: 'card' };
  while (rest.length > 0) {
    const flag = rest.shift();
    if (flag === '--v0_3-from' && ['interfaces', 'card'].includes(rest[0])) {
      options.from = rest.shift();
    } else {
      usage();
    }
  }
  return options;
}

/** The well-known card as the SDK's resolver reads it: interfaces, capabilities, skills. */
async function cardChecks(agentUrl) {
  await check('card', '1.0', 'card: resolved from /.well-known/agent-card.json with every binding', async () => {
    const card = await new DefaultAgentCardResolver().resolve(agentUrl);
    const interfaces = card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`).sort();
    assertEqual(interfaces, ['GRPC 0.3', 'GRPC 1.0', 'HTTP+JSON 0.3', 'HTTP+JSON 1.0', 'JSONRPC 0.3', 'JSONRPC 1.0'], 'interfaces');
    const caps = card.capabilities;
    assert(caps?.streaming && caps?.pushNotifications && caps?.extendedAgentCard, 'capabilities', caps);
    assertEqual(card.skills.map((s) => s.id), ['find-hotels', 'route-planner'], 'skills');
  });
}

/**
 * The errors only a JSON-RPC envelope has, sent raw (the SDK's client cannot send them) and read by
 * the SDK's own reader. §9.5 names -32700, -32600 and -32601 as three errors (JSONParseError,
 * InvalidRequestError, MethodNotFoundError); the SDK folds all three into RequestMalformedError,
 * keeping the code in `envelopeCode`: asserted as the SDK does it.
 */
async function envelopeErrorChecks(agentUrl) {
  const card = await new DefaultAgentCardResolver().resolve(agentUrl);
  const url = card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC' && i.protocolVersion === '1.0').url;
  const cases = [
    ['JSONParseError', '{"jsonrpc": "2.0", "id": 1, "method": ', -32700],
    ['InvalidRequestError', JSON.stringify({ jsonrpc: '1.0', id: 2, method: 'GetTask', params: { id: 'x' } }), -32600],
    ['MethodNotFoundError', JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'GetWeather', params: {} }), -32601],
  ];
  for (const [name, body, code] of cases) {
    await check('JSONRPC', '1.0', `error ${name} (${code}): the SDK reads RequestMalformedError, not a ${name} of its own (§9.5)`, async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
        body,
      });
      const envelope = await response.json();
      assertEqual([envelope.jsonrpc, envelope.error?.code], ['2.0', code], 'envelope');
      const error = fromJsonRpcErrorResponse(envelope);
      assert(error instanceof RequestMalformedError, `the SDK reads it as ${error.name}`);
      assertEqual(error.envelopeCode, code, 'envelopeCode');
    });
  }
}

async function main({ agentUrl, minimalUrl, from }) {
  await cardChecks(agentUrl);
  const webhook = await Webhook.start();
  const created = {};
  try {
    for (const binding of V1_BINDINGS) {
      await driveV1(binding, agentUrl, minimalUrl, webhook, created);
    }
    await envelopeErrorChecks(agentUrl);
    await wireChecks(agentUrl, from);
    await driveV0_3(agentUrl, minimalUrl, webhook, created, from);
  } finally {
    webhook.close();
  }
}

const options = parseArguments(process.argv.slice(2));
const timer = setTimeout(() => {
  record('run', '-', `finished within ${WHOLE_RUN_SECONDS} s`, false);
  summarize();
  process.exit(1);
}, WHOLE_RUN_SECONDS * 1000);
try {
  await main(options);
} catch (error) {
  record('run', '-', 'the run itself', false, `${error?.name}: ${error?.message}`);
}
clearTimeout(timer);
const failed = summarize();
process.exit(failed === 0 ? 0 : 1);
