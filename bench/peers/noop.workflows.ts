// The no-op peer of ticket creation (bundled by the peer's worker; imports only the
// workflow SDK, like the app's workflows). Shape of ticketWorkflow's creation path:
// started with update-with-start, the `started` update resolves once the first
// activity has returned, then the workflow ends (the ticket workflow would go on to
// triage and wait for its timers).
import { allHandlersFinished, condition, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import { startedUpdate } from './noop.contract';

type NoopActivities = { noop(input: { n: number }): Promise<string> };
const options = { startToCloseTimeout: '5 seconds', retry: { initialInterval: '200 ms', backoffCoefficient: 2, maximumAttempts: 6 } } as const;
const remote = proxyActivities<NoopActivities>(options);
// the ticket workflow stores the ticket with a local activity (workflows/ticket/ticket.workflow.ts)
const local = proxyLocalActivities<NoopActivities>(options);

async function run(noop: NoopActivities['noop'], n: number): Promise<string> {
  let result: string | null = null;
  setHandler(startedUpdate, async () => {
    await condition(() => result !== null);
    return result!;
  });
  result = await noop({ n });
  await condition(allHandlersFinished);
  return result;
}

/** The brief's peer: one (regular) no-op activity. */
export async function benchNoopWorkflow(n: number): Promise<string> {
  return run(remote.noop, n);
}

/** The same with a local activity: the shape of ticket creation since storage went local. */
export async function benchNoopLocalWorkflow(n: number): Promise<string> {
  return run(local.noop, n);
}
