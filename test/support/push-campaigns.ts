// Shared pieces of the campaign tests: create one over HTTP, wait for its workflow's end,
// the pushes the suite's sink received for it (each carries the campaign's id), and the
// API tests' tenant and calls (useCampaignApi).
import assert from 'node:assert/strict';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { campaignWorkflowId, type CampaignResult } from '../../workflows/campaign/contract';
import type { TestApi, TestResponse } from './api';
import { bearer, startPushApi } from './push';
import { createTwoAppTenant, insertManyDevices, type TwoAppTenant } from './push-device-factories';
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

/** The campaign API tests' tenant and calls (test/api/push-campaigns*.test.ts). */
export interface CampaignApi {
  api: TestApi;
  /** two apps of one company; appA has 30 Android devices, 10 of them tier `gold` */
  t: TwoAppTenant;
  /** another company */
  other: TwoAppTenant;
  user(): Record<string, string>;
  create(body: Record<string, unknown>, headers?: Record<string, string>): Promise<TestResponse>;
  call(method: 'GET' | 'POST', path: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  /** a Draft of appA, created or the test fails */
  draft(body?: Record<string, unknown>): Promise<any>;
}

/** Registers the file's beforeAll/afterAll; `api`, `t` and `other` are set once beforeAll ran. */
export function useCampaignApi(): CampaignApi {
  const s = {} as CampaignApi;
  beforeAll(async () => {
    s.api = await startPushApi();
    s.t = await createTwoAppTenant(s.api);
    s.other = await createTwoAppTenant(s.api);
    await insertManyDevices(s.api.deps.db, s.t.appA, 30, (n) => ({ platform: 'Android', deviceMetadata: { tier: n <= 10 ? 'gold' : 'free' } }));
  });
  afterAll(async () => s.api?.stop());
  s.user = () => bearer(s.t.userToken);
  s.create = (body, headers = s.user()) =>
    s.api.request('POST', '/api/v1/campaigns', { headers, body: { appId: s.t.appA, name: 'Launch', title: 'Hello', body: 'World', targetType: 'All', ...body } });
  s.call = (method, path, body, headers = s.user()) => s.api.request(method, `/api/v1/campaigns${path}`, { headers, body });
  s.draft = async (body = {}) => {
    const res = await s.create(body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  return s;
}

/** An ISO time `ms` from now. */
export const ahead = (ms: number) => new Date(Date.now() + ms).toISOString();
