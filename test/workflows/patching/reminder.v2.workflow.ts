// Version 2, done safely: the new audit step runs only where patched() says this run
// reached the spot under the new code. A history recorded by version 1 replays without it.
import { patched, proxyActivities, sleep } from '@temporalio/workflow';
import type { ReminderActivities } from './activities';

const { notify, audit } = proxyActivities<ReminderActivities>({ startToCloseTimeout: '10 seconds' });

export async function reminderWorkflow(name: string): Promise<string[]> {
  await sleep('1 hour');
  const out: string[] = [];
  if (patched('audit-before-notify')) out.push(await audit(name));
  out.push(await notify(name));
  return out;
}
