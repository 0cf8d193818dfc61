// Version 2 done wrong: the same change without patched(). Runs started under version 1
// cannot replay it (the test shows the nondeterminism error).
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { ReminderActivities } from './activities';

const { notify, audit } = proxyActivities<ReminderActivities>({ startToCloseTimeout: '10 seconds' });

export async function reminderWorkflow(name: string): Promise<string[]> {
  await sleep('1 hour');
  const out: string[] = [];
  out.push(await audit(name));
  out.push(await notify(name));
  return out;
}
