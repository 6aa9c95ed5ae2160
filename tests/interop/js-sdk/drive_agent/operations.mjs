// The operations every binding and version of drive_agent.mjs is driven through, with the JS SDK's
// client (`Client`, whose transport the factory chose): SendMessage (task, artifacts, message,
// states, multi-turn), SendStreamingMessage, GetTask with historyLength, ListTasks, CancelTask,
// SubscribeToTask, the push-config methods (push.mjs), and one store for every binding.
// The example agent's behaviours are chosen by the messageId prefixes of a2a-testkit's table.

import {
  assert,
  assertEqual,
  drain,
  isMessage,
  kinds,
  nanos,
  statusTimestamps,
  Role,
  sendRequest,
  TaskState,
  texts,
  unique,
} from './checks.mjs';
import { pushConfigChecks } from './push.mjs';

const { TASK_STATE_COMPLETED, TASK_STATE_INPUT_REQUIRED, TASK_STATE_CANCELED } = TaskState;

/** A state's name, for messages. */
const stateName = (state) => TaskState[state] ?? String(state);

function assertState(task, state, what) {
  assert(task && !isMessage(task), `${what}: a task, not a message`, task);
  assertEqual(stateName(task.status?.state), stateName(state), `${what}: state`);
}

/** Status timestamps of one task never go back (§4.1.2: the time the status was recorded). */
function assertNonDecreasing(timestamps) {
  const times = timestamps.map(nanos);
  assert(times.every((t, i) => i === 0 || times[i - 1] <= t), 'status timestamps go backwards', timestamps);
}

/** The task a returnImmediately send gives back, as it stands. */
async function startTask(client, messageId) {
  const task = await client.sendMessage(sendRequest(messageId, { configuration: { returnImmediately: true } }));
  assert(!isMessage(task), 'returnImmediately answers with the task', task);
  return task;
}

/** A ListTasksRequest of the SDK's type with these fields set. */
function listRequest(fields) {
  return { tenant: '', contextId: '', status: 0, pageToken: '', statusTimestampAfter: undefined, ...fields };
}

/**
 * Runs the operation checks through `client` with `run(name, body)`. `listTasks` says whether the
 * binding has ListTasks (v1); without, `listRefusal(client)` checks how the client refuses it.
 */
export async function operationChecks({ binding, version, client, webhook, created, listTasks, listRefusal, run }) {
  const send = (messageId, options) => client.sendMessage(sendRequest(messageId, options));
  // The JS SDK's v0.3 protobuf transports (HTTP+JSON and gRPC) depart from the Python SDK 0.3, whose
  // protobuf form the agent writes: they read `FilePart.file_with_bytes` as the content itself, where
  // the Python SDK 0.3 writes (and reads) the base64 text of the content there; their
  // `FromProto.taskArtifactUpdateEvent` drops `append`; and their file parts carry no `name` either
  // way (`ToProto.part`, `FromProto.part`). These checks read through the three departures.
  const jsProtoV0_3 = version === '0.3' && binding !== 'JSONRPC';
  const fileName = (name) => (jsProtoV0_3 ? '' : name);
  const fileBytes = (value) => (jsProtoV0_3 ? Buffer.from(Buffer.from(value ?? []).toString('utf8'), 'base64') : Buffer.from(value ?? []));

  await run('SendMessage: a completed task with a text artifact', async () => {
    const task = await send(unique('tck-artifact-text'));
    assertState(task, TASK_STATE_COMPLETED, 'tck-artifact-text');
    assertEqual(texts(task.artifacts[0]?.parts), ['Generated text content'], 'artifact');
    created[`${binding} ${version}`] = task.id;
  });

  await run('SendMessage: file bytes, file URL and data artifacts', async () => {
    const file = (await send(unique('tck-artifact-file'))).artifacts[0].parts[0];
    assertEqual(file.content?.$case, 'raw', 'file part');
    assertEqual(fileBytes(file.content.value).toString('utf8'), 'Generated file content', 'file bytes');
    assertEqual([file.filename, file.mediaType], [fileName('output.txt'), 'text/plain'], 'file name and type');
    const url = (await send(unique('tck-artifact-file-url'))).artifacts[0].parts[0];
    assertEqual([url.content?.$case, url.content?.value, url.filename, url.mediaType],
      ['url', 'https://example.com/output.txt', fileName('output.txt'), 'text/plain'], 'URL part');
    const data = (await send(unique('tck-artifact-data'))).artifacts[0].parts[0];
    assertEqual([data.content?.$case, data.content?.value], ['data', { key: 'value', count: 42 }], 'data part');
  });

  await run('SendMessage: the user\'s text, file bytes, file URL and data parts and metadata come back in the history', async () => {
    const parts = [
      { text: 'see attached' },
      { raw: Buffer.from([0, 1, 2, 250, 255, 10]).toString('base64'), filename: 'blob.bin', mediaType: 'application/octet-stream' },
      { url: 'https://example.com/plan.pdf', filename: 'plan.pdf', mediaType: 'application/pdf' },
      { data: { nights: 3, city: 'Lisbon', tags: ['a', 'b'] } },
    ];
    const request = sendRequest(unique('tck-complete-task'), {
      fields: { parts, metadata: { trip: 'spring', count: 2 } },
    });
    const task = await client.sendMessage(request);
    const sent = (await client.getTask({ tenant: '', id: task.id })).history[0];
    assertEqual(sent.messageId, request.message.messageId, 'the first history message is the one sent');
    const shape = (p, read, name) => [p.content?.$case, Buffer.isBuffer(p.content?.value) ? [...read(p.content.value)] : p.content?.value, name(p.filename), p.mediaType];
    const sentShape = sent.parts.map((p) => shape(p, fileBytes, (n) => n));
    assertEqual(sentShape, request.message.parts.map((p) => shape(p, Buffer.from, (n) => (n === '' ? n : fileName(n)))), 'parts');
    assertEqual(sent.metadata, { trip: 'spring', count: 2 }, 'metadata');
  });

  await run('SendMessage: a message reply (no task)', async () => {
    const reply = await send(unique('tck-message-response'));
    assert(isMessage(reply), 'a Message', reply);
    assertEqual(texts(reply.parts), ['Direct message response'], 'text');
    assertEqual(reply.role, Role.ROLE_AGENT, 'role');
  });

  await run('SendMessage: rejected, failed and auth-required tasks', async () => {
    const rejected = await send(unique('tck-reject-task'));
    assertState(rejected, TaskState.TASK_STATE_REJECTED, 'tck-reject-task');
    assertEqual(texts(rejected.status.message?.parts), ['rejected'], 'rejection message');
    const failed = await send(unique('tck-task-failure'));
    assertState(failed, TaskState.TASK_STATE_FAILED, 'tck-task-failure');
    assertEqual(texts(failed.status.message?.parts), ['Task failed: simulated failure'], 'failure message');
    assertState(await send(unique('tck-auth-required')), TaskState.TASK_STATE_AUTH_REQUIRED, 'tck-auth-required');
  });

  await run('SendMessage: input-required, multi-turn on the same task (§3.4)', async () => {
    const first = await send(unique('tck-input-required'));
    assertState(first, TASK_STATE_INPUT_REQUIRED, 'first turn');
    const onTask = { taskId: first.id, contextId: first.contextId };
    const second = await send(unique('tck-input-required'), { text: 'Two adults', fields: onTask });
    assertState(second, TASK_STATE_INPUT_REQUIRED, 'second turn');
    const done = await send(unique('turn'), { text: 'done', fields: onTask });
    assertState(done, TASK_STATE_COMPLETED, 'last turn');
    assertEqual([second.id, done.id, done.contextId], [first.id, first.id, first.contextId], 'same task');
    const history = (await client.getTask({ tenant: '', id: first.id })).history;
    const userTexts = history.filter((m) => m.role === Role.ROLE_USER).map((m) => texts(m.parts)[0]);
    assertEqual(userTexts, ['hello', 'Two adults', 'done'], 'the user turns in the history');
  });

  await run('SendMessage: the travel skills answer a plain message', async () => {
    const task = await send(unique('m'), { text: 'Find a hotel in Lisbon' });
    assertState(task, TASK_STATE_COMPLETED, 'hotel search');
    assertEqual(texts(task.artifacts[0]?.parts)[0], 'Understood: Find a hotel in Lisbon', 'first part');
  });

  await run('SendStreamingMessage: task, working, chunked artifact, completed, in order, timestamps never back', async () => {
    const events = await drain(client.sendMessageStream(sendRequest(unique('tck-stream-artifact-chunked'))));
    assertEqual(kinds(events), ['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate'], 'events');
    const taskId = events[0].payload.value.id;
    assert(events.every((e) => (e.payload.value.taskId ?? e.payload.value.id) === taskId), 'one task id');
    assertEqual(stateName(events[1].payload.value.status.state), 'TASK_STATE_WORKING', 'second event');
    const chunks = events.slice(2, 4).map((e) => {
      const update = e.payload.value;
      return [texts(update.artifact.parts)[0], update.append, update.lastChunk];
    });
    assertEqual(chunks, [['chunk-1 ', false, false], ['chunk-2', !jsProtoV0_3, true]], 'chunks');
    assertEqual(stateName(events[4].payload.value.status.state), 'TASK_STATE_COMPLETED', 'last event');
    assertNonDecreasing(statusTimestamps(events));
  });

  await run('SendStreamingMessage: single text and file artifacts, a lone completed status, a message', async () => {
    for (const [prefix, text] of [['tck-stream-001', 'Stream hello from TCK'], ['tck-stream-ordering-001', 'Ordered output']]) {
      const events = await drain(client.sendMessageStream(sendRequest(unique(prefix))));
      const artifacts = events.filter((e) => e.payload.$case === 'artifactUpdate');
      assertEqual(artifacts.map((e) => texts(e.payload.value.artifact.parts)[0]), [text], prefix);
    }
    const fileEvents = await drain(client.sendMessageStream(sendRequest(unique('tck-stream-artifact-file'))));
    const file = fileEvents.find((e) => e.payload.$case === 'artifactUpdate')?.payload.value.artifact.parts[0];
    assertEqual([file?.content?.$case, fileBytes(file?.content?.value).toString('utf8'), file?.filename],
      ['raw', 'Generated file content', fileName('output.txt')], 'a streamed file artifact');
    const lone = await drain(client.sendMessageStream(sendRequest(unique('tck-stream-002'))));
    const last = lone[lone.length - 1].payload;
    const state = last.$case === 'task' ? last.value.status.state : last.value.status?.state;
    assertEqual(stateName(state), 'TASK_STATE_COMPLETED', 'tck-stream-002 ends completed');
    const reply = await drain(client.sendMessageStream(sendRequest(unique('tck-message-response'))));
    assertEqual(kinds(reply), ['message'], 'a message reply streams as one message');
  });

  // v1 (§3.2.4): 0 means no history. v0.3 has no "none": its historyLength 0 is proto3's unset
  // (a2a.proto v0.3, SendMessageConfiguration: "if 0, the history will be unlimited"), and the SDK's
  // v0.3 transport passes the v1 request's 0 through as it is, so the whole history comes back.
  const zeroName = version === '0.3' ? '0 read as unset (v0.3 a2a.proto; the SDK passes v1\'s 0 through)' : '0';
  await run(`GetTask: historyLength absent, 1 and ${zeroName} (§3.2.4)`, async () => {
    const task = await send(unique('tck-complete-task'));
    const full = await client.getTask({ tenant: '', id: task.id });
    assertEqual(full.history.map((m) => texts(m.parts)[0]), ['hello', 'Hello from TCK'], 'full history');
    const last = await client.getTask({ tenant: '', id: task.id, historyLength: 1 });
    assertEqual(last.history.map((m) => texts(m.parts)[0]), ['Hello from TCK'], 'historyLength 1');
    const zero = await client.getTask({ tenant: '', id: task.id, historyLength: 0 });
    assertEqual(zero.history.length, version === '0.3' ? 2 : 0, 'historyLength 0');
  });

  await run('SendMessage: configuration.historyLength 1 trims the answer\'s history (§3.2.4)', async () => {
    const task = await send(unique('tck-complete-task'), { configuration: { historyLength: 1 } });
    assertState(task, TASK_STATE_COMPLETED, 'tck-complete-task');
    assertEqual(task.history.map((m) => texts(m.parts)[0]), ['Hello from TCK'], 'history');
  });

  if (listTasks) {
    await run('ListTasks: contextId, status and statusTimestampAfter filters, paging, includeArtifacts, historyLength (§3.1.4)', async () => {
      const contextId = unique('ctx-list');
      const ids = new Set();
      for (let i = 0; i < 3; i += 1) {
        ids.add((await send(unique('tck-artifact-text'), { fields: { contextId } })).id);
      }
      const first = await client.listTasks(listRequest({ contextId, pageSize: 2 }));
      assertEqual([first.tasks.length, first.totalSize, first.pageSize], [2, 3, 2], 'first page');
      assert(first.nextPageToken !== '', 'a first page of two out of three has a nextPageToken');
      assert(first.tasks.every((t) => t.artifacts.length === 0), 'artifacts are left out unless asked for');
      const second = await client.listTasks(
        listRequest({ contextId, pageSize: 2, pageToken: first.nextPageToken, includeArtifacts: true }),
      );
      assertEqual([second.tasks.length, second.nextPageToken], [1, ''], 'last page');
      assertEqual(second.tasks[0].artifacts.length, 1, 'includeArtifacts');
      const listed = [...first.tasks, ...second.tasks];
      assertEqual(listed.map((t) => t.id).sort(), [...ids].sort(), 'every task once');
      const times = listed.map((t) => Date.parse(t.status.timestamp));
      assert(times.every((t, i) => i === 0 || times[i - 1] >= t), 'newest status first', times);
      const completed = await client.listTasks(listRequest({ contextId, status: TASK_STATE_COMPLETED }));
      assertEqual(completed.totalSize, 3, 'status COMPLETED');
      const working = await client.listTasks(listRequest({ contextId, status: TaskState.TASK_STATE_WORKING }));
      assertEqual([working.totalSize, working.tasks.length], [0, 0], 'status WORKING');
      const trimmed = await client.listTasks(listRequest({ contextId, historyLength: 0 }));
      assert(trimmed.tasks.every((t) => t.history.length === 0), 'historyLength 0 drops the history');
      const oldest = listed[listed.length - 1].status.timestamp;
      const after = await client.listTasks(listRequest({ contextId, statusTimestampAfter: oldest }));
      assert(after.tasks.every((t) => nanos(t.status.timestamp) >= nanos(oldest)), 'statusTimestampAfter', after.tasks);
      assert(after.totalSize >= 2 && after.totalSize <= 3, 'statusTimestampAfter the oldest keeps the newer tasks', after.totalSize);
      const future = new Date(Date.now() + 3_600_000).toISOString();
      const none = await client.listTasks(listRequest({ contextId, statusTimestampAfter: future }));
      assertEqual(none.totalSize, 0, 'statusTimestampAfter an hour from now');
    });
  } else {
    await run('ListTasks: v0.3 has no such method; the SDK client refuses it', () => listRefusal(client));
  }

  await run('CancelTask: a working task becomes canceled', async () => {
    const task = await startTask(client, unique('tck-cancel'));
    const canceled = await client.cancelTask({ tenant: '', id: task.id });
    assertState(canceled, TASK_STATE_CANCELED, 'CancelTask answer');
    assertState(await client.getTask({ tenant: '', id: task.id }), TASK_STATE_CANCELED, 'GetTask after');
  });

  await run('SubscribeToTask: the task first, then its updates to completion, timestamps never back (§3.1.6)', async () => {
    const task = await startTask(client, unique('test-resubscribe-message-id'));
    const events = await drain(client.resubscribeTask({ tenant: '', id: task.id }));
    assertEqual([events[0]?.payload.$case, events[0]?.payload.value.id], ['task', task.id], 'first event');
    const last = events[events.length - 1].payload;
    assertEqual([last.$case, stateName(last.value.status?.state)], ['statusUpdate', 'TASK_STATE_COMPLETED'], 'last event');
    assertNonDecreasing([task.status?.timestamp, ...statusTimestamps(events)]);
  });

  await run('SubscribeToTask: a CancelTask ends the stream with the canceled status', async () => {
    const task = await startTask(client, unique('tck-cancel'));
    const stream = client.resubscribeTask({ tenant: '', id: task.id });
    const first = await stream.next();
    assertEqual([first.value?.payload.$case, first.value?.payload.value.id], ['task', task.id], 'first event');
    await client.cancelTask({ tenant: '', id: task.id });
    const rest = await drain(stream);
    const last = rest[rest.length - 1]?.payload;
    assertEqual([last?.$case, stateName(last?.value.status?.state)], ['statusUpdate', 'TASK_STATE_CANCELED'], 'last event');
  });

  await pushConfigChecks({ binding, version, client, webhook, run, startTask, send });

  await run('GetTask: one store for every binding (tasks made over the others read back)', async () => {
    const others = Object.entries(created);
    assert(others.length >= 1, 'at least this binding made a task');
    for (const [other, id] of others) {
      const task = await client.getTask({ tenant: '', id });
      assertEqual(task.id, id, `the task made over ${other}`);
    }
  });
}
