// Shared set-up of the push sending tests: an account with an app that has the local
// sink's FCM and APNs credentials and an API key (all over HTTP, as a client does it),
// devices written through the repository (a thousand registrations over HTTP would only
// measure the register endpoint), and the sends' outcomes.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Db } from '../../db/db';
import { registerDevice } from '../../db/repositories/push-devices';
import { demoCredentials } from '../../lib/push/demo-credentials';
import { pushSendWorkflowId, type PushSendTotals } from '../../workflows/push-send/contract';
import type { TestApi } from './api';
import { createApp, createKey, registerAccount } from './push';
import { within } from './within';

export interface PushTenant {
  token: string;
  appId: string;
  apiKey: string;
}

/** A new account, one app with the demo credentials the sink trusts, and an API key of it. */
export async function pushTenant(api: TestApi, o: { credentials?: boolean } = {}): Promise<PushTenant> {
  const { accessToken: token } = await registerAccount(api);
  const app = await createApp(api, token, { bundleId: demoCredentials().apns.bundleId });
  if (o.credentials !== false) {
    const creds = demoCredentials();
    const fcm = await api.request('PUT', `/api/v1/apps/${app.id}/fcm-config`, { token, body: { serviceAccountJson: creds.serviceAccountJson } });
    assert.ok(fcm.status < 300, JSON.stringify(fcm.body));
    const apns = await api.request('PUT', `/api/v1/apps/${app.id}/apns-config`, { token, body: creds.apns });
    assert.ok(apns.status < 300, JSON.stringify(apns.body));
  }
  const key = await createKey(api, token, app.id);
  return { token, appId: app.id, apiKey: key.key };
}

export interface TestDevice {
  id: string;
  token: string;
  platform: 'Android' | 'iOS';
}

/** `count` active devices of the app, tokens `<prefix>-<n>` (prefix `unregistered-…`: dead on the sink), registered in one transaction. */
export async function insertDevices(db: Db, appId: string, count: number, o: { prefix?: string; platform?: (n: number) => 'Android' | 'iOS' } = {}): Promise<TestDevice[]> {
  const prefix = o.prefix ?? `tok-${randomUUID()}`;
  const devices = Array.from({ length: count }, (_, n) => ({ id: randomUUID(), token: `${prefix}-${n}`, platform: o.platform?.(n) ?? ('Android' as const) }));
  await db.transaction(async (m) => {
    for (const [n, d] of devices.entries()) {
      await registerDevice(m, { id: d.id, appId, deviceToken: d.token, platform: d.platform, userId: `user-${n + 1}` });
    }
  });
  return devices;
}

/** The send a notification belongs to. */
export async function sendOf(db: Db, notificationId: string): Promise<string> {
  const { rows } = await db.query(`SELECT send_id FROM push_notifications WHERE id = $1`, [notificationId]);
  assert.ok(rows[0], `no notification ${notificationId}`);
  return rows[0].send_id;
}

/**
 * Waits for the send's workflow to end and answers its totals. The workflow may not
 * exist yet: the push worker's start dispatcher starts it from the outbox after the send
 * committed.
 */
export async function sendResult(client: Client, sendId: string, timeoutMs = 120_000): Promise<PushSendTotals> {
  const handle = client.workflow.getHandle(pushSendWorkflowId(sendId));
  const result = async (): Promise<PushSendTotals> => {
    for (;;) {
      try {
        return (await handle.result()) as PushSendTotals;
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  return within(result(), timeoutMs, () => `send ${sendId} not done after ${timeoutMs} ms`);
}

/** The notification rows of a send by status. */
export async function statusCounts(db: Db, sendId: string): Promise<Record<string, number>> {
  const { rows } = await db.query(`SELECT status, count(*)::int AS n FROM push_notifications WHERE send_id = $1 GROUP BY status`, [sendId]);
  return Object.fromEntries(rows.map((r: { status: string; n: number }) => [r.status, r.n]));
}
