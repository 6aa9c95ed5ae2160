// The push-notification checks of drive_agent.mjs (§3.1.7-§3.1.10, §4.3.3), through the JS SDK's
// client: a config's create, get, list and delete with a delivery to a loopback webhook, a config
// given with SendMessage, and the errors of configs of unknown tasks or ids.

import { StreamResponse, TaskState } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { assertEqual, expectError, unique } from './checks.mjs';

/** Whether a webhook body is the status update that completes a task. */
function completedUpdate(body) {
  const event = StreamResponse.fromJSON(body ?? {}).payload;
  return event?.$case === 'statusUpdate' && event.value.status?.state === TaskState.TASK_STATE_COMPLETED;
}

/** Every delivery carries the config's credentials and names the task. */
function assertDeliveries(deliveries, credentials, taskId) {
  for (const { headers, body } of deliveries) {
    assertEqual(headers.authorization, `Bearer ${credentials}`, 'Authorization from the config (§4.3.3)');
    const event = StreamResponse.fromJSON(body).payload;
    assertEqual(event?.value?.taskId ?? event?.value?.id, taskId, 'the delivery names the task');
  }
}

/** A TaskPushNotificationConfig of the SDK's type. */
function pushConfig(taskId, id, url, credentials) {
  return { tenant: '', id, taskId, url, token: unique('token'), authentication: { scheme: 'Bearer', credentials } };
}

const listOf = (taskId) => ({ tenant: '', taskId, pageSize: 0, pageToken: '' });

export async function pushConfigChecks({ binding, version, client, webhook, run, startTask, send }) {
  const hookPath = (what) => `/${what}/${encodeURIComponent(`${binding}-${version}`)}/${unique('hook')}`;

  await run('push configs: create, get, list, delete, and a delivery to the webhook (§4.3.3)', async () => {
    const task = await startTask(client, unique('test-resubscribe-message-id'));
    const path = hookPath('crud');
    const credentials = unique('secret');
    const config = pushConfig(task.id, 'hook-1', webhook.url + path, credentials);
    const made = await client.createTaskPushNotificationConfig(config);
    assertEqual([made.id, made.taskId, made.url, made.token], ['hook-1', task.id, config.url, config.token], 'created');
    const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'hook-1' });
    assertEqual([got.id, got.url], ['hook-1', config.url], 'got');
    const listed = await client.listTaskPushNotificationConfig(listOf(task.id));
    assertEqual(listed.configs.map((c) => c.id), ['hook-1'], 'listed');
    assertDeliveries(await webhook.waitFor(path, completedUpdate), credentials, task.id);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'hook-1' });
    const after = await client.listTaskPushNotificationConfig(listOf(task.id));
    assertEqual(after.configs.length, 0, 'listed after delete');
  });

  await run('push configs: one given with SendMessage (configuration.taskPushNotificationConfig) is used', async () => {
    const path = hookPath('inline');
    const credentials = unique('secret');
    const { tenant: _, id: __, taskId: ___, ...push } = pushConfig('', '', webhook.url + path, credentials);
    const task = await send(unique('test-resubscribe-message-id'), {
      configuration: { returnImmediately: true, taskPushNotificationConfig: push },
    });
    assertDeliveries(await webhook.waitFor(path, completedUpdate), credentials, task.id);
  });

  await run('push configs: two on one task listed; delete is idempotent (§3.1.9, §3.1.10)', async () => {
    const task = await startTask(client, unique('tck-cancel'));
    for (const id of ['hook-a', 'hook-b']) {
      await client.createTaskPushNotificationConfig(pushConfig(task.id, id, `${webhook.url}${hookPath('two')}`, 'x'));
    }
    const listed = await client.listTaskPushNotificationConfig(listOf(task.id));
    assertEqual(listed.configs.map((c) => c.id).sort(), ['hook-a', 'hook-b'], 'listed');
    for (let i = 0; i < 2; i += 1) {
      await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'hook-a' });
    }
    const after = await client.listTaskPushNotificationConfig(listOf(task.id));
    assertEqual(after.configs.map((c) => c.id), ['hook-b'], 'listed after deleting hook-a twice');
    await client.cancelTask({ tenant: '', id: task.id });
  });

  await run('error TaskNotFound: push configs of an unknown task, or an unknown config id (§3.1.7-§3.1.9)', async () => {
    const unknownTask = unique('no-such-task');
    const config = pushConfig(unknownTask, 'hook-1', `${webhook.url}/never`, 'x');
    await expectError(() => client.createTaskPushNotificationConfig(config), TaskNotFoundError);
    await expectError(() => client.listTaskPushNotificationConfig(listOf(unknownTask)), TaskNotFoundError);
    const task = await send(unique('tck-complete-task'));
    await expectError(
      () => client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: unique('no-such-config') }),
      TaskNotFoundError,
    );
  });
}
