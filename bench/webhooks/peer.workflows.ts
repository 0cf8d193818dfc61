// Peer 2's workflows, bundled by the peer worker (bench/webhooks/temporal-peer.ts) through
// its own workflowsPath; they import only the workflow SDK, like the app's workflows.
// The bare shape of a delivery: a workflow that calls one trivial activity and ends.
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';

type PeerActivities = { trivial(n: number): Promise<string> };
const options = { startToCloseTimeout: '10 seconds', retry: { initialInterval: '200 ms', backoffCoefficient: 2, maximumAttempts: 6 } } as const;
const remote = proxyActivities<PeerActivities>(options);
// the delivery workflow makes its attempts as local activities (workflows/webhook-delivery/)
const local = proxyLocalActivities<PeerActivities>(options);

/** The peer: one (normal, task-queue) activity. */
export async function benchWebhookPeerWorkflow(n: number): Promise<string> {
  return remote.trivial(n);
}

/** The same with a local activity: the shape our deliveries have. */
export async function benchWebhookPeerLocalWorkflow(n: number): Promise<string> {
  return local.trivial(n);
}
