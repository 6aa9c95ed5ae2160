// An A2A agent served by the official JS SDK's (@a2a-js/sdk) own server pieces, v1 and v0.3 on all
// three bindings, as an outside judge of the workspace's client and conformance suite.
//
//     node sdk_agent_server.mjs [--delay SECONDS] [--token TOKEN]
//
// Everything that speaks the protocol is the SDK's: DefaultRequestHandler over an InMemoryTaskStore,
// an InMemoryPushNotificationStore with the SDK's v0.3-aware push sender, the express JSON-RPC, REST
// and agent-card handlers with the v0.3 compatibility layer on (a request without `A2A-Version`, or
// with 0.3, is served as v0.3 on the same URL; the v0.3 REST paths are `/v1/...` under the same
// prefix), and the v1 and v0.3 gRPC services on one grpc-js server. Only the agent executor is ours.
//
// It answers first by the incoming message's messageId prefix, the table conformance kits use (the
// one of tests/interop/sdk_agent_server.py and a2a-testkit's behaviour table), then by a file part
// if the message has one, and otherwise by the message's text:
//
//   text contains    behaviour
//   "message"        a message, no task: "direct JS answer"
//   "input"          input-required ("What date?"); the next turn on the task completes it with the
//                    artifact "got: TEXT"
//   "stream"         working, then one artifact in three chunks ("chunk-1 ", "chunk-2 ", "chunk-3",
//                    appended, the last one marked lastChunk), then completed
//   "slow"           working, waits --delay seconds, then completed with "slow done"; cancelable
//   "file"           a completed task with the file artifact "output.txt" whose bytes are
//                    "Generated file content" (text/plain)
//   "fail"           a failed task, status message "failure on demand"
//   (a file part)    a message with inline file content: a completed task with the text artifact
//                    "received: CONTENT", the bytes the SDK handed the executor read as UTF-8
//   anything else    a completed task with the text artifact "echo: TEXT"
//
// The card lists six interfaces: JSON-RPC at URL/jsonrpc, HTTP+JSON at URL/rest and gRPC at the gRPC
// address, each once with protocolVersion 1.0 and once with 0.3. GetExtendedAgentCard answers the
// extended card (one more skill, "vip-lounge") to `Authorization: Bearer TOKEN`, else the public card.
// Binds 127.0.0.1 only, on ports the OS picks, and prints one JSON line once both servers listen:
// {"url": "http://127.0.0.1:PORT", "grpc": "127.0.0.1:PORT", "token": TOKEN}. Runs until killed or
// until its standard input closes, so it never outlives the test that started it.

import { once } from 'node:events';

import express from 'express';
import * as grpc from '@grpc/grpc-js';
import { AgentCard, Artifact, Message, Task, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
} from '@a2a-js/sdk/server';
import {
  UserBuilder,
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
} from '@a2a-js/sdk/server/express';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';
import { createLegacyAwarePushNotificationSender } from '@a2a-js/sdk/compat/v0_3/server';
import { LegacyA2AService, legacyGrpcService } from '@a2a-js/sdk/compat/v0_3/server/grpc';

const STREAM_TEXT = {
  'tck-stream-001': 'Stream hello from TCK',
  'tck-stream-003': 'Stream task lifecycle',
  'tck-stream-ordering-001': 'Ordered output',
  'tck-stream-artifact-text': 'Streamed text content',
};

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

const delaySeconds = Number(option('--delay', '2'));
const token = option('--token', 'js-extended-card-token');
// The SDK's v1 card handler writes the card's security schemes in its own in-memory form (see the
// Rust test's departures), which a v1 client cannot read: they are left out unless asked for.
const withSecurityScheme = process.argv.includes('--security-scheme');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function textOf(message) {
  return (message?.parts ?? [])
    .filter((part) => part.content?.$case === 'text')
    .map((part) => part.content.value)
    .join('');
}

/** The bytes of the message's first file part with inline content, if any. */
function rawOf(message) {
  const part = (message?.parts ?? []).find((p) => p.content?.$case === 'raw');
  return part?.content.value;
}

/** Which behaviour a message asks for: the messageId table first, then the text. */
function behaviourOf(message) {
  const id = message.messageId;
  const prefixes = [
    'tck-message-response',
    'tck-complete-task',
    'tck-artifact-text',
    'tck-artifact-file-url',
    'tck-artifact-file',
    'tck-artifact-data',
    'tck-input-required',
    'tck-reject-task',
    'tck-stream-002',
    'tck-stream-artifact-file',
    'tck-stream-artifact-chunked',
    ...Object.keys(STREAM_TEXT),
    'test-resubscribe-message-id',
  ];
  const prefix = prefixes.find((p) => id.startsWith(p));
  if (prefix) return prefix;
  if (rawOf(message) !== undefined) return 'received-file';
  const text = textOf(message);
  for (const word of ['message', 'input', 'stream', 'slow', 'file', 'fail']) {
    if (text.includes(word)) return word;
  }
  return 'echo';
}

/** The executor: publishes the events of the behaviour the message asks for. */
class BehaviourTable {
  canceled = new Set();
  contexts = new Map();

  async execute(context, bus) {
    const message = context.userMessage;
    const { taskId, contextId } = context;
    this.contexts.set(taskId, contextId);
    const agentMessage = (text) =>
      Message.fromJSON({
        messageId: crypto.randomUUID(),
        role: 'ROLE_AGENT',
        taskId,
        contextId,
        parts: [{ text }],
      });
    const status = (state, text) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            message: text === undefined ? undefined : agentMessage(text),
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        }),
      );
    const artifact = (parts, { id = crypto.randomUUID(), name = 'output', append = false, last = false } = {}) =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: Artifact.fromJSON({ artifactId: id, name, parts }),
          append,
          lastChunk: last,
          metadata: undefined,
        }),
      );

    const behaviour = behaviourOf(message);
    if (behaviour === 'tck-message-response' || behaviour === 'message') {
      const text = behaviour === 'message' ? 'direct JS answer' : 'Direct message response';
      bus.publish(
        AgentEvent.message(
          Message.fromJSON({ messageId: crypto.randomUUID(), role: 'ROLE_AGENT', contextId, parts: [{ text }] }),
        ),
      );
      return;
    }
    const continuing = context.task !== undefined;
    if (!continuing) {
      bus.publish(
        AgentEvent.task(
          Task.fromJSON({
            id: taskId,
            contextId,
            status: { state: 'TASK_STATE_SUBMITTED', timestamp: new Date().toISOString() },
            history: [Message.toJSON(message)],
          }),
        ),
      );
    }
    const working = () => status(TaskState.TASK_STATE_WORKING);
    const complete = (text) => status(TaskState.TASK_STATE_COMPLETED, text);
    const fileBytes = (text) => Buffer.from(text).toString('base64');

    if (continuing && context.task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      artifact([{ text: `got: ${textOf(message)}` }]);
      complete();
      return;
    }
    switch (behaviour) {
      case 'tck-complete-task':
        complete('Hello from TCK');
        return;
      case 'tck-artifact-text':
        artifact([{ text: 'Generated text content' }]);
        complete();
        return;
      case 'tck-artifact-file-url':
        artifact([{ url: 'https://example.com/output.txt', mediaType: 'text/plain', filename: 'output.txt' }]);
        complete();
        return;
      case 'tck-artifact-file':
      case 'file':
        artifact([{ raw: fileBytes('Generated file content'), mediaType: 'text/plain', filename: 'output.txt' }]);
        complete();
        return;
      case 'tck-artifact-data':
        artifact([{ data: { key: 'value', count: 42 } }]);
        complete();
        return;
      case 'tck-input-required':
      case 'input':
        status(TaskState.TASK_STATE_INPUT_REQUIRED, 'What date?');
        return;
      case 'tck-reject-task':
        status(TaskState.TASK_STATE_REJECTED, 'rejected');
        return;
      case 'tck-stream-002':
        complete();
        return;
      case 'tck-stream-artifact-file':
        working();
        artifact([{ raw: fileBytes('Streamed file content'), mediaType: 'text/plain', filename: 'output.txt' }]);
        complete();
        return;
      case 'tck-stream-artifact-chunked':
        working();
        artifact([{ text: 'chunk-1 ' }], { id: 'chunked', name: 'chunked' });
        artifact([{ text: 'chunk-2' }], { id: 'chunked', name: 'chunked', append: true, last: true });
        complete();
        return;
      case 'stream':
        working();
        for (const [index, text] of ['chunk-1 ', 'chunk-2 ', 'chunk-3'].entries()) {
          // Apart in time, so a stream reader sees them arrive one by one.
          await sleep(50);
          artifact([{ text }], { id: 'streamed', name: 'streamed', append: index > 0, last: index === 2 });
        }
        complete();
        return;
      case 'test-resubscribe-message-id':
      case 'slow': {
        working();
        const until = Date.now() + delaySeconds * 1000;
        while (Date.now() < until) {
          await sleep(25);
          // The canceled status was published by cancelTask: publish nothing more.
          if (this.canceled.has(taskId)) return;
        }
        if (behaviour === 'slow') artifact([{ text: 'slow done' }]);
        complete();
        return;
      }
      case 'received-file':
        artifact([{ text: `received: ${Buffer.from(rawOf(message)).toString('utf8')}` }]);
        complete();
        return;
      case 'fail':
        status(TaskState.TASK_STATE_FAILED, 'failure on demand');
        return;
      default:
        if (STREAM_TEXT[behaviour] !== undefined) {
          working();
          artifact([{ text: STREAM_TEXT[behaviour] }]);
          complete();
          return;
        }
        artifact([{ text: `echo: ${textOf(message)}` }], { name: 'echo' });
        complete();
    }
  }

  async cancelTask(taskId, bus) {
    this.canceled.add(taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: this.contexts.get(taskId) ?? '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
  }
}

function agentCard(url, grpcTarget, extended) {
  const skills = [
    { id: 'behaviour-table', name: 'Behaviour table', description: 'Answers by messageId prefix or text', tags: ['test'] },
  ];
  if (extended) {
    skills.push({ id: 'vip-lounge', name: 'VIP lounge', description: 'Only listed on the extended card', tags: ['extended'] });
  }
  const interfaces = ['1.0', '0.3'].flatMap((protocolVersion) => [
    { url: `${url}/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion },
    { url: `${url}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion },
    { url: grpcTarget, protocolBinding: 'GRPC', protocolVersion },
  ]);
  return AgentCard.fromJSON({
    name: 'JS SDK agent',
    description: 'The official A2A JS SDK server pieces over a behaviour table',
    version: '1.0.0',
    supportedInterfaces: interfaces,
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    ...(withSecurityScheme ? { securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'bearer' } } } } : {}),
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
  });
}

/** The `authorization` header (HTTP) or metadata (gRPC) the SDK put in the call's state. */
function authorizationOf(context) {
  const headers = context.state.get('headers') ?? {};
  const value = headers.authorization ?? headers.Authorization;
  return Array.isArray(value) ? value[0] : value;
}

async function main() {
  const app = express();
  const http = app.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const url = `http://127.0.0.1:${http.address().port}`;

  const grpcServer = new grpc.Server();
  const grpcPort = await new Promise((resolve, reject) =>
    grpcServer.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve(port),
    ),
  );
  const grpcTarget = `127.0.0.1:${grpcPort}`;

  const publicCard = agentCard(url, grpcTarget, false);
  const extendedCard = agentCard(url, grpcTarget, true);
  const pushStore = new InMemoryPushNotificationStore();
  const requestHandler = new DefaultRequestHandler(
    publicCard,
    new InMemoryTaskStore(),
    new BehaviourTable(),
    undefined,
    pushStore,
    createLegacyAwarePushNotificationSender(pushStore),
    async (context) => (authorizationOf(context) === `Bearer ${token}` ? extendedCard : publicCard),
  );
  const userBuilder = UserBuilder.noAuthentication;
  const legacyCompat = { enabled: true };

  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }));
  app.use('/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder, legacyCompat }));
  app.use('/rest', restHandler({ requestHandler, userBuilder, legacyCompat }));

  grpcServer.addService(A2AService, grpcService({ requestHandler, userBuilder }));
  grpcServer.addService(LegacyA2AService, legacyGrpcService({ requestHandler, userBuilder }));

  process.stdout.write(`${JSON.stringify({ url, grpc: grpcTarget, token })}\n`);

  // Standard input closing means the parent is gone: stop rather than linger.
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('close', () => process.exit(0));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
