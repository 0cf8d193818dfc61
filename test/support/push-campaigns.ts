// Shared pieces of the campaign tests: create one over HTTP, wait for its workflow's end,
// and the pushes the suite's sink received for it (each carries the campaign's id).
import assert from 'node:assert/strict';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { campaignWorkflowId, type CampaignResult } from '../../workflows/campaign/contract';
import type { TestApi } from './api';
import { sinkRecords, type SinkRecord } from './push-sink';
import { within } from './within';

export async function createCampaign(api: TestApi, token: string, body: Record<string, unknown>): Promise<any> {
  const res = await api.request('POST', '/api/v1/campaigns', {
    token,
    body: { name: 'Launch', title: 'Season 3', body: 'New maps are live', targetType: 'All', ...body },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/**
 * Waits for the campaign's workflow to end (through its continued runs) and answers its
 * result. The workflow may not exist yet: the push worker's start dispatcher starts it
 * from the outbox after the send committed.
 */
export async function campaignResult(client: Client, campaignId: string, timeoutMs = 120_000): Promise<CampaignResult> {
  const handle = client.workflow.getHandle(campaignWorkflowId(campaignId));
  const result = async (): Promise<CampaignResult> => {
    for (;;) {
      try {
        return (await handle.result()) as CampaignResult;
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  return within(result(), timeoutMs, () => `campaign ${campaignId} not done after ${timeoutMs} ms`);
}

/** What the suite's sink received for the campaign (FCM and APNs). */
export function campaignPushes(campaignId: string): SinkRecord[] {
  return sinkRecords(undefined).filter((r) => r.data?.campaignId === campaignId);
}
