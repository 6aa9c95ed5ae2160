// What every check of drive_agent.mjs shares: one JSON line per check (binding, version, check,
// ok, detail), the pass counts per binding and version, a time bound per check, the typed-error
// expectation, and the requests built the way the SDK's own types parse them.

import { Message, Role, SendMessageRequest, TaskState } from '@a2a-js/sdk';

/** Every check run so far: {binding, version, check, ok, detail}. */
const results = [];

/** Prints one check's outcome as a JSON line and keeps it for the summary. */
export function record(binding, version, check, ok, detail = '') {
  const line = { binding, version, check, ok, detail };
  results.push(line);
  console.log(JSON.stringify(line));
}

/** Runs `body` within `seconds`; a throw or a timeout is a failure with its reason. */
export async function check(binding, version, name, body, seconds = 20) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${seconds} s`)), seconds * 1000);
  });
  try {
    await Promise.race([body(), timeout]);
    record(binding, version, name, true);
  } catch (error) {
    record(binding, version, name, false, describe(error));
  } finally {
    clearTimeout(timer);
  }
}

/** Prints one summary line per binding and version and returns how many checks failed. */
export function summarize() {
  const groups = new Map();
  for (const r of results) {
    const key = `${r.binding} ${r.version}`;
    const group = groups.get(key) ?? { binding: r.binding, version: r.version, passed: 0, total: 0 };
    group.total += 1;
    group.passed += r.ok ? 1 : 0;
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    console.log(JSON.stringify({ summary: true, ...group }));
  }
  return results.filter((r) => !r.ok).length;
}

/** An error's class, name and message (and its cause's), for a failure's detail. */
export function describe(error) {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.name}: ${error.cause.message})` : '';
  return `${error.constructor?.name ?? 'Error'}/${error.name}: ${error.message}${cause}`;
}

/** Throws with `message` (and the value) unless `condition` holds. */
export function assert(condition, message, value) {
  if (!condition) {
    throw new Error(value === undefined ? message : `${message}: ${JSON.stringify(value, jsonSafe)}`);
  }
}

/** Throws unless `actual` and `expected` are equal as JSON (object keys in any order). */
export function assertEqual(actual, expected, what) {
  const a = JSON.stringify(actual, jsonSafe);
  const e = JSON.stringify(expected, jsonSafe);
  if (a !== e) throw new Error(`${what}: got ${a}, expected ${e}`);
}

/** JSON.stringify's replacer: bigints as text, object keys sorted (JSON objects have no order). */
function jsonSafe(_key, value) {
  if (typeof value === 'bigint') return value.toString();
  if (value && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]]));
  }
  return value;
}

/**
 * Runs `call()` (a promise or an async iterator, drained) and returns the error it raises, which
 * must be an instance of `errorClass` (the SDK's typed error).
 */
export async function expectError(call, errorClass) {
  try {
    const result = call();
    if (result && typeof result[Symbol.asyncIterator] === 'function') {
      for await (const _ of result) {
        // drained: the error comes while reading
      }
    } else {
      await result;
    }
  } catch (error) {
    if (error instanceof errorClass) return error;
    throw new Error(`expected ${errorClass.name}, the SDK raised ${describe(error)}`);
  }
  throw new Error(`expected ${errorClass.name}, the call succeeded`);
}

/**
 * Like `expectError`, for a stream whose error comes as the stream's one event: over v0.3 the
 * server sends it so (a v0.3 stream's response may be a JSON-RPC error response, and the Python
 * SDK 0.3's client reads nothing else), and the JS SDK's v0.3 transport raises that as an `Error`
 * ("SSE event contained an error") whose `cause` is the typed error, which must be there.
 */
export async function expectErrorEvent(call, errorClass) {
  try {
    const result = call();
    if (result && typeof result[Symbol.asyncIterator] === 'function') {
      for await (const _ of result) {
        // drained: the error comes while reading
      }
    } else {
      await result;
    }
  } catch (error) {
    if (String(error?.message).includes('SSE event contained an error') && error.cause instanceof errorClass) {
      return error.cause;
    }
    throw new Error(`expected an error event with ${errorClass.name} as its cause, the SDK raised ${describe(error)}`);
  }
  throw new Error(`expected ${errorClass.name}, the call succeeded`);
}

let counter = 0;

/** A message id (or any id) no other call of this run uses, starting with `prefix`. */
export function unique(prefix) {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}`;
}

/** A user message, as the SDK's `Message` type parses it from ProtoJSON. */
export function userMessage(messageId, text = 'hello', fields = {}) {
  return Message.fromJSON({ messageId, role: 'ROLE_USER', parts: [{ text }], ...fields });
}

/** A SendMessageRequest of one user message, with optional `configuration` (ProtoJSON). */
export function sendRequest(messageId, { text, fields, configuration } = {}) {
  const request = SendMessageRequest.fromJSON({ configuration });
  request.message = userMessage(messageId, text, fields);
  return request;
}

/** The texts of a part list (text parts only). */
export function texts(parts) {
  return (parts ?? []).filter((p) => p.content?.$case === 'text').map((p) => p.content.value);
}

/** The case names of stream events (`task`, `statusUpdate`, `artifactUpdate`, `message`). */
export function kinds(events) {
  return events.map((e) => e.payload?.$case);
}

/** Collects every event of an async iterator. */
export async function drain(iterator) {
  const events = [];
  for await (const event of iterator) events.push(event);
  return events;
}

/** An RFC 3339 timestamp as nanoseconds since the epoch (a BigInt), keeping every fraction digit. */
export function nanos(timestamp) {
  const match = /^(.*?:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(timestamp ?? '');
  if (!match) throw new Error(`not an RFC 3339 timestamp: ${JSON.stringify(timestamp)}`);
  const seconds = BigInt(Date.parse(`${match[1]}${match[3]}`)) / 1000n;
  return seconds * 1_000_000_000n + BigInt((match[2] ?? '').padEnd(9, '0'));
}

/** The status timestamps a stream's events carry (the task's and each status update's), in order. */
export function statusTimestamps(events) {
  return events
    .filter((e) => e.payload.$case === 'task' || e.payload.$case === 'statusUpdate')
    .map((e) => e.payload.value.status?.timestamp);
}

/** Whether a SendMessage result is a Message (the SDK returns the Task or the Message itself). */
export function isMessage(result) {
  return 'messageId' in result && !('status' in result);
}

export { Role, TaskState };
