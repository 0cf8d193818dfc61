// Version 1 of the example: wait an hour, then notify.
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { ReminderActivities } from './activities';

const { notify } = proxyActivities<ReminderActivities>({ startToCloseTimeout: '10 seconds' });

export async function reminderWorkflow(name: string): Promise<string[]> {
  await sleep('1 hour');
  return [await notify(name)];
}
