// The workflow histories of one campaign, read through the Temporal client: the runs of
// `campaign/<id>` (the latest by describe, each earlier one by the continued-from run id
// in its first event), every child workflow they started, and, as a cross-check that
// nothing the campaign caused is missed, the largest history of any workflow the stack's
// Temporal server started during the campaign (a page or send workflow started through
// the outbox is no child of the campaign workflow). The aim: no history over 10 k events.
import { Client, WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;

export interface RunHistory {
  workflowId: string;
  runId: string;
  events: number;
  /** how the run ended: the history's last event type (e.g. ContinuedAsNew, Completed) */
  closedBy: string;
}

export interface CampaignHistories {
  workflowId: string;
  /** the campaign workflow's runs, first to last */
  runs: RunHistory[];
  /** child workflows started by those runs (each its own runs), at most `maxChildren` */
  children: RunHistory[];
  /** the largest of runs and children */
  largest: RunHistory | null;
  /** every workflow started on the server in the campaign's window: how many, and the largest history among them */
  window?: { workflows: number; largest: { workflowId: string; type: string; events: number } | null };
}

type HistoryEvent = NonNullable<History['events']>[number];

/** how a run's last event closed it (the event type is a numeric enum in the client's history) */
function closedBy(e: HistoryEvent | undefined): string {
  if (!e) return 'none';
  if (e.workflowExecutionContinuedAsNewEventAttributes) return 'ContinuedAsNew';
  if (e.workflowExecutionCompletedEventAttributes) return 'Completed';
  if (e.workflowExecutionFailedEventAttributes) return 'Failed';
  if (e.workflowExecutionCanceledEventAttributes) return 'Canceled';
  if (e.workflowExecutionTerminatedEventAttributes) return 'Terminated';
  if (e.workflowExecutionTimedOutEventAttributes) return 'TimedOut';
  return 'running';
}

/** one workflow's runs, the latest first and followed back through continue-as-new */
async function runsOf(client: Client, workflowId: string, maxRuns = 1000): Promise<{ runs: RunHistory[]; childIds: string[] }> {
  const runs: RunHistory[] = [];
  const childIds: string[] = [];
  let runId: string | undefined = (await client.workflow.getHandle(workflowId).describe()).runId;
  while (runId && runs.length < maxRuns) {
    const history: History = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    runs.push({ workflowId, runId, events: events.length, closedBy: closedBy(events[events.length - 1]) });
    for (const e of events) {
      const child = e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
      if (child) childIds.push(child);
    }
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return { runs: runs.reverse(), childIds };
}

export async function campaignHistories(client: Client, campaignId: string, o: { since: Date; until: Date; maxChildren?: number }): Promise<CampaignHistories> {
  const workflowId = `campaign/${campaignId}`;
  const out: CampaignHistories = { workflowId, runs: [], children: [], largest: null };
  try {
    const { runs, childIds } = await runsOf(client, workflowId);
    out.runs = runs;
    for (const id of [...new Set(childIds)].slice(0, o.maxChildren ?? 500)) {
      try {
        out.children.push(...(await runsOf(client, id)).runs);
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    }
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  out.largest = [...out.runs, ...out.children].reduce<RunHistory | null>((a, b) => (!a || b.events > a.events ? b : a), null);
  out.window = await largestInWindow(client, o.since, o.until);
  return out;
}

/** the visibility store's history lengths of every workflow started between `since` and `until` */
async function largestInWindow(client: Client, since: Date, until: Date): Promise<CampaignHistories['window']> {
  let workflows = 0;
  let largest: { workflowId: string; type: string; events: number } | null = null;
  const query = `StartTime >= "${since.toISOString()}" AND StartTime <= "${until.toISOString()}"`;
  for await (const w of client.workflow.list({ query })) {
    workflows++;
    if (!largest || w.historyLength > largest.events) largest = { workflowId: w.workflowId, type: w.type, events: w.historyLength };
  }
  return { workflows, largest };
}
