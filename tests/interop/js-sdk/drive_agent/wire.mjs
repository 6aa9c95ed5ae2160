// The checks of drive_agent.mjs that read the wire itself, or the SDK's reading of an answer the
// rest of the driver never provokes: the JSON-RPC 401 envelope, the standard JSON-RPC errors
// written as the official Python SDK 1.3 writes them, and `nextPageToken` on the last page. Each
// names the section it holds the server to.

import { A2AError, ERROR_INFO_TYPE, fromJsonRpcErrorResponse } from '@a2a-js/sdk/errors';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { assert, assertEqual, check, expectError, sendRequest, unique } from './checks.mjs';
import { legacyCard } from './v0_3.mjs';

/** The agent's interface of `binding` at version 1.0. */
async function interfaceUrl(agentUrl, binding) {
  const card = await new DefaultAgentCardResolver().resolve(agentUrl);
  return card.supportedInterfaces.find((i) => i.protocolBinding === binding && i.protocolVersion === '1.0').url;
}

/** The wire checks against the agent at `agentUrl` (its v0.3 interface found as `from` says). */
export async function wireChecks(agentUrl, from) {
  await check('JSONRPC', '1.0', 'GetExtendedAgentCard without the token: a JSON-RPC error envelope, which the SDK reads as an A2AError (§9.5)', async () => {
    const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory()], preferredTransports: ['JSONRPC'] });
    const anonymous = await factory.createFromUrl(agentUrl);
    await expectError(() => anonymous.getAgentCard(), A2AError);
  });
  await check('JSONRPC', '0.3', 'agent/getAuthenticatedExtendedCard without the token: a JSON-RPC error envelope, which the SDK reads as an A2AError', async () => {
    const card = await legacyCard(agentUrl, from);
    const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })] });
    const anonymous = await factory.createFromAgentCard(card);
    await expectError(() => anonymous.getAgentCard(), A2AError);
  });

  const jsonrpc = await interfaceUrl(agentUrl, 'JSONRPC');
  const standard = [
    ['-32700', '{"jsonrpc": "2.0", "id": 1, "method": ', []],
    ['-32600', JSON.stringify({ jsonrpc: '1.0', id: 2, method: 'GetTask', params: { id: 'x' } }), ['INVALID_REQUEST']],
    ['-32601', JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'GetWeather', params: {} }), []],
  ];
  for (const [code, body, reasons] of standard) {
    const shape = reasons.length === 0 ? 'bare, no ErrorInfo in data' : `an ErrorInfo ${reasons[0]}`;
    await check('JSONRPC', '1.0', `error ${code}: ${shape}, as the Python SDK 1.3 writes it (§9.5 makes details optional)`, async () => {
      const response = await fetch(jsonrpc, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
        body,
      });
      const error = fromJsonRpcErrorResponse(await response.json());
      const infos = (Array.isArray(error.data) ? error.data : []).filter((d) => d?.['@type'] === ERROR_INFO_TYPE);
      assertEqual(infos.map((info) => info.reason), reasons, 'ErrorInfo reasons');
    });
  }

  // The SDK reads an absent nextPageToken as "" (ts-proto defaults), so the wire itself is read.
  const rest = await interfaceUrl(agentUrl, 'HTTP+JSON');
  const contextId = unique('ctx-last-page');
  const lastPage = {
    JSONRPC: async () => {
      const response = await fetch(jsonrpc, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: { contextId } }),
      });
      return (await response.json()).result;
    },
    'HTTP+JSON': async () => {
      const response = await fetch(`${rest}/tasks?contextId=${encodeURIComponent(contextId)}`, {
        headers: { 'A2A-Version': '1.0' },
      });
      return response.json();
    },
  };
  const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory()], preferredTransports: ['JSONRPC'] });
  for (const [binding, read] of Object.entries(lastPage)) {
    await check(binding, '1.0', 'ListTasks: the last page says nextPageToken "" (§3.1.4)', async () => {
      const client = await factory.createFromUrl(agentUrl);
      await client.sendMessage(sendRequest(unique('tck-complete-task'), { fields: { contextId } }));
      const page = await read();
      assert(page && 'nextPageToken' in page, 'nextPageToken is absent', page && Object.keys(page));
      assertEqual(page.nextPageToken, '', 'nextPageToken');
    });
  }
}
