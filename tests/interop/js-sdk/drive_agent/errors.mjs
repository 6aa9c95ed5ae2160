// The A2A errors of drive_agent.mjs that every binding and version gives alike (§3.3.2, §5.4), as
// the JS SDK's client raises them: unknown tasks, tasks that cannot be canceled, operations on
// terminal tasks, and unsupported content types.

import {
  ContentTypeNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { drain, expectError, expectErrorEvent, sendRequest, unique } from './checks.mjs';

/**
 * Runs the shared error checks through `client` with `run(name, body)`; with `errorsAsEvents` (v0.3)
 * an error of a streaming call must come as the stream's one event (see `expectErrorEvent`), else
 * as the call's answer.
 */
export async function commonErrorChecks(client, run, errorsAsEvents = false) {
  const expectStreamError = errorsAsEvents ? expectErrorEvent : expectError;
  const completedTask = () => client.sendMessage(sendRequest(unique('tck-complete-task')));
  const unknown = () => unique('no-such-task');

  await run('error TaskNotFound: GetTask, CancelTask and SendMessage of an unknown task id', async () => {
    await expectError(() => client.getTask({ tenant: '', id: unknown() }), TaskNotFoundError);
    await expectError(() => client.cancelTask({ tenant: '', id: unknown() }), TaskNotFoundError);
    const followUp = sendRequest(unique('m'), { fields: { taskId: unknown() } });
    await expectError(() => client.sendMessage(followUp), TaskNotFoundError);
  });
  await run('error TaskNotFound on streams: SubscribeToTask and SendStreamingMessage of an unknown task id', async () => {
    await expectStreamError(() => drain(client.resubscribeTask({ tenant: '', id: unknown() })), TaskNotFoundError);
    const followUp = sendRequest(unique('m'), { fields: { taskId: unknown() } });
    await expectStreamError(() => drain(client.sendMessageStream(followUp)), TaskNotFoundError);
  });
  await run('error TaskNotCancelable: CancelTask of a completed task (§3.1.5)', async () => {
    const task = await completedTask();
    await expectError(() => client.cancelTask({ tenant: '', id: task.id }), TaskNotCancelableError);
  });
  await run('error UnsupportedOperation: SubscribeToTask of a completed task (§3.1.6)', async () => {
    const task = await completedTask();
    await expectStreamError(() => client.resubscribeTask({ tenant: '', id: task.id }), UnsupportedOperationError);
  });
  await run('error UnsupportedOperation: a message to a completed task, sent and streamed (§3.1.1, §3.1.2)', async () => {
    const task = await completedTask();
    const onTask = () => sendRequest(unique('m'), { fields: { taskId: task.id, contextId: task.contextId } });
    await expectError(() => client.sendMessage(onTask()), UnsupportedOperationError);
    await expectStreamError(() => drain(client.sendMessageStream(onTask())), UnsupportedOperationError);
  });
  await run('error ContentTypeNotSupported: acceptedOutputModes video/mp4 only', async () => {
    const request = sendRequest(unique('m'), { configuration: { acceptedOutputModes: ['video/mp4'] } });
    await expectError(() => client.sendMessage(request), ContentTypeNotSupportedError);
  });
}
