// The send workflow's activities (workflows/push-send/contract.ts): one page of a send
// through the app's transports, every device's outcome recorded before the call returns.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../db/db';
import {
  finishSend,
  pageCounts,
  pageToSend,
  recordOutcomes,
  sealedCredentials,
  startSending,
  type Outcome,
  type PageRow,
  type SealedCredentials,
} from '../../db/repositories/push-sends';
import type { PushTransport } from '../../lib/push/transport';
import type { PushPageInput, PushPageResult, PushSendActivities } from '../../workflows/push-send/contract';
import { PAGE_MAX_ATTEMPTS } from '../../workflows/push-send/push-send.logic';
import { messageFor } from './messages';
import { outcomeOf } from './outcomes';
import type { TransportCache } from './transports';

type Platform = PageRow['platform'];

/**
 * How the worker reaches an app's push service for one platform: the transport, opened
 * from the app's sealed credentials (read from Postgres here, never passed as input), or
 * null when the app has none for that platform.
 */
export type OpenTransport = (app: SealedCredentials, platform: Platform) => {
  sealed: string;
  open: () => PushTransport;
} | null;

export interface PushActivityDeps {
  db: Db;
  openTransport: OpenTransport;
  transports: TransportCache;
}

export function createPushSendActivities(deps: PushActivityDeps): PushSendActivities {
  const { db } = deps;

  async function transportFor(appId: string, platform: Platform): Promise<PushTransport | null> {
    const app = await sealedCredentials(db, appId);
    const how = app && deps.openTransport(app, platform);
    return how ? deps.transports.get(`${appId}/${platform}`, how.sealed, how.open) : null;
  }

  return {
    async sendPushPage({ sendId, afterPosition, limit }: PushPageInput): Promise<PushPageResult> {
      const send = await startSending(db, sendId);
      if (!send) return { sent: 0, failed: 0, rows: 0, lastPosition: null, more: false }; // app deleted: its sends went with it
      const { rows, more } = await pageToSend(db, sendId, afterPosition, limit);
      const lastAttempt = Context.current().info.attempt >= PAGE_MAX_ATTEMPTS;
      // a local activity (a trigger batch's page) has no heartbeat: its
      // workflow task is what times out when the worker dies
      const heartbeat = Context.current().info.isLocal ? undefined : setInterval(() => Context.current().heartbeat(), 1000);
      let retryable = 0;
      try {
        // rows a previous attempt recorded are never sent again
        const queued = rows.filter((r) => r.status === 'queued');
        const unreachable: Outcome[] = queued
          .filter((r) => !r.token || !r.deviceActive)
          .map((r) => ({ notificationId: r.notificationId, ok: false, error: r.token ? 'device inactive' : 'device deleted' }));
        await recordOutcomes(db, unreachable);
        for (const platform of ['Android', 'iOS'] as const) {
          const mine = queued.filter((r) => r.platform === platform && r.token && r.deviceActive);
          if (!mine.length) continue;
          const transport = await transportFor(send.appId, platform);
          if (!transport) {
            const what = platform === 'Android' ? 'FCM' : 'APNs';
            await recordOutcomes(db, mine.map((r) => ({ notificationId: r.notificationId, ok: false, error: `the app has no ${what} credentials` })));
            continue;
          }
          // record after each transport batch: a kill repeats at most the batch in flight
          for (let i = 0; i < mine.length; i += transport.maxBatch) {
            const batch = mine.slice(i, i + transport.maxBatch);
            const results = await transport.send(batch.map((r) => messageFor(send, r.notificationId, r.token!, r)));
            const outcomes = batch.flatMap((r, k) => outcomeOf(r, results[k], lastAttempt));
            retryable += batch.length - outcomes.length;
            await recordOutcomes(db, outcomes);
          }
        }
      } finally {
        clearInterval(heartbeat);
      }
      if (retryable) {
        // left `queued`: the retry sends only them
        throw ApplicationFailure.retryable(`${retryable} device(s) of send ${sendId} got a transient failure`, 'PushTransient');
      }
      return pageResult(db, sendId, rows, more);
    },

    async finishPushSend({ sendId }) {
      await finishSend(db, sendId);
    },
  };
}

/** The page's counts as recorded now (a repeated page counts what earlier attempts recorded too). */
async function pageResult(db: Db, sendId: string, rows: PageRow[], more: boolean): Promise<PushPageResult> {
  if (!rows.length) return { sent: 0, failed: 0, rows: 0, lastPosition: null, more: false };
  const lastPosition = rows[rows.length - 1].position;
  return { ...(await pageCounts(db, sendId, rows[0].position, lastPosition)), rows: rows.length, lastPosition, more };
}
