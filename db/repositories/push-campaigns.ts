// push_campaigns, and a campaign's audience snapshot (its push_sends row and one
// push_notifications row per device). The API writes a Draft and its move to
// Queued/Scheduled; from then on the campaign workflow's activities write it
// (domain/push/campaign*.ts). Every status change is a compare-and-set on the status.
import { randomUUID } from 'node:crypto';
import { sql, type Executor } from '../db';
import { segmentDeviceQuery } from './push-segment-sql';
import type { SegmentFilter } from '../../domain/push/segment-filter.rules';
import type { CampaignRecord, CampaignStatus } from '../../domain/push/types';
import { COUNTS, toCounts, type Counts } from './push-analytics';

const COLUMNS = `id, app_id AS "appId", name, title, body, image_url AS "imageUrl", deep_link AS "deepLink",
  custom_data AS "customData", target_type AS "targetType", segment_id AS "segmentId", status,
  scheduled_at AS "scheduledAt", send_id AS "sendId", recipients, failure_reason AS "failureReason",
  created_at AS "createdAt", updated_at AS "updatedAt", started_at AS "startedAt", finished_at AS "finishedAt"`;

/** A Draft as the API creates it: the record's message and audience fields. */
export type NewCampaign = Pick<
  CampaignRecord,
  'appId' | 'name' | 'title' | 'body' | 'imageUrl' | 'deepLink' | 'customData' | 'targetType' | 'segmentId'
>;

export async function insertCampaign(ex: Executor, c: NewCampaign): Promise<CampaignRecord> {
  const { rows } = await sql<CampaignRecord>(
    ex,
    `INSERT INTO push_campaigns (id, app_id, name, title, body, image_url, deep_link, custom_data, target_type, segment_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10) RETURNING ${COLUMNS}`,
    [randomUUID(), c.appId, c.name, c.title, c.body, c.imageUrl, c.deepLink, JSON.stringify(c.customData), c.targetType, c.segmentId],
  );
  return rows[0];
}

export async function findCampaign(ex: Executor, id: string, opts: { lock?: boolean } = {}): Promise<CampaignRecord | null> {
  const { rows } = await sql<CampaignRecord>(ex, `SELECT ${COLUMNS} FROM push_campaigns WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0] ?? null;
}

/** An app's campaigns, newest first, and how many it has. */
export async function listCampaigns(ex: Executor, appId: string, offset: number, limit: number): Promise<{ items: CampaignRecord[]; total: number }> {
  const [items, total] = await Promise.all([
    sql<CampaignRecord>(ex, `SELECT ${COLUMNS} FROM push_campaigns WHERE app_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT $3`, [appId, offset, limit]),
    sql<{ n: number }>(ex, `SELECT count(*)::int AS n FROM push_campaigns WHERE app_id = $1`, [appId]),
  ]);
  return { items: items.rows, total: total.rows[0].n };
}

export interface CampaignChanges {
  scheduledAt?: Date | null;
  sendId?: string;
  recipients?: number;
  failureReason?: string | null;
  started?: boolean;
  finished?: boolean;
}

/**
 * Moves the campaign from one of `from` to `to` (with `changes`) and answers it, or null
 * when it is not in one of `from` (or gone): the compare-and-set every status change is.
 */
export async function transitionCampaign(
  ex: Executor,
  id: string,
  from: readonly CampaignStatus[],
  to: CampaignStatus,
  changes: CampaignChanges = {},
): Promise<CampaignRecord | null> {
  const { rows } = await sql<CampaignRecord>(
    ex,
    `UPDATE push_campaigns SET status = $3, updated_at = now(),
            scheduled_at = CASE WHEN $4 THEN $5::timestamptz ELSE scheduled_at END,
            send_id = COALESCE($6::uuid, send_id),
            recipients = COALESCE($7::int, recipients),
            failure_reason = CASE WHEN $8 THEN $9 ELSE failure_reason END,
            started_at = CASE WHEN $10 THEN COALESCE(started_at, now()) ELSE started_at END,
            finished_at = CASE WHEN $11 THEN COALESCE(finished_at, now()) ELSE finished_at END
      WHERE id = $1 AND status = ANY($2::text[])
      RETURNING ${COLUMNS}`,
    [
      id,
      [...from],
      to,
      changes.scheduledAt !== undefined,
      changes.scheduledAt ?? null,
      changes.sendId ?? null,
      changes.recipients ?? null,
      changes.failureReason !== undefined,
      changes.failureReason ?? null,
      changes.started ?? false,
      changes.finished ?? false,
    ],
  );
  return rows[0] ?? null;
}

/** Active devices of the app in the campaign's audience now (the segment evaluated now; `All`: every one). */
export async function countAudience(ex: Executor, appId: string, filter: SegmentFilter | null): Promise<number> {
  const q = audienceQuery(appId, filter);
  const { rows } = await sql<{ n: number }>(ex, `SELECT count(*)::int AS n FROM push_devices d WHERE ${q.whereSql}`, q.params);
  return rows[0].n;
}

function audienceQuery(appId: string, filter: SegmentFilter | null, paramOffset = 0): { whereSql: string; params: unknown[] } {
  if (filter) return segmentDeviceQuery(filter, appId, { alias: 'd', paramOffset });
  return { whereSql: `d.app_id = $${paramOffset + 1}::uuid AND d.is_active`, params: [appId] };
}

/** The campaign's send (its audience snapshot), if it was taken: the send's id and size. */
export async function campaignSend(ex: Executor, campaignId: string): Promise<{ sendId: string; total: number } | null> {
  const { rows } = await sql<{ sendId: string; total: number }>(
    ex,
    `SELECT s.id AS "sendId", (SELECT count(*)::int FROM push_notifications n WHERE n.send_id = s.id) AS total
       FROM push_sends s WHERE s.campaign_id = $1`,
    [campaignId],
  );
  return rows[0] ?? null;
}

/**
 * The audience snapshot, in the caller's transaction: one push_sends row with the
 * campaign's message and id, and one `queued` push_notifications row per active device
 * of the audience now, at positions 0..N-1 (by device id), in two statements. Device
 * tokens stay in push_devices: the page activity joins them when it pushes.
 */
export async function insertCampaignSend(ex: Executor, c: CampaignRecord, filter: SegmentFilter | null): Promise<{ sendId: string; total: number }> {
  const sendId = randomUUID();
  await sql(
    ex,
    `INSERT INTO push_sends (id, app_id, campaign_id, title, body, deep_link, image_url, custom_data, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, 'queued')`,
    [sendId, c.appId, c.id, c.title, c.body, c.deepLink, c.imageUrl, JSON.stringify(c.customData)],
  );
  const q = audienceQuery(c.appId, filter, 2);
  const { rows } = await sql<{ n: number }>(
    ex,
    `WITH ins AS (
       INSERT INTO push_notifications (id, send_id, app_id, device_id, position, platform)
       SELECT gen_random_uuid(), $1::uuid, $2::uuid, d.id, (row_number() OVER (ORDER BY d.id) - 1)::int, d.platform
         FROM push_devices d WHERE ${q.whereSql}
       RETURNING 1)
     SELECT count(*)::int AS n FROM ins`,
    [sendId, c.appId, ...q.params],
  );
  return { sendId, total: rows[0].n };
}

/**
 * The end of a campaign's send: rows not pushed yet become `cancelled` (a cancelled
 * campaign) or `failed` with `error` (a fan-out that could not finish), the send is
 * done; answers how many of its devices were pushed.
 */
export async function closeCampaignSend(ex: Executor, sendId: string, unsent: { status: 'cancelled' | 'failed'; error?: string }): Promise<number> {
  await sql(
    ex,
    `UPDATE push_notifications SET status = $2, failed_at = CASE WHEN $2 = 'failed' THEN now() END, error = $3
      WHERE send_id = $1 AND status = 'queued'`,
    [sendId, unsent.status, unsent.error ?? null],
  );
  await sql(ex, `UPDATE push_sends SET status = 'done', finished_at = COALESCE(finished_at, now()) WHERE id = $1`, [sendId]);
  return sentCount(ex, sendId);
}

/** Devices of a send pushed so far (recorded `sent`). */
export async function sentCount(ex: Executor, sendId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>(ex, `SELECT count(*)::int AS n FROM push_notifications WHERE send_id = $1 AND status = 'sent'`, [sendId]);
  return rows[0].n;
}

/** The recorded facts of a send, per platform (analytics.rules.ts makes the rates). */
export async function sendCountsByPlatform(ex: Executor, sendId: string): Promise<{ android: Counts; ios: Counts }> {
  const { rows } = await sql<Record<string, unknown> & { platform: 'Android' | 'iOS' }>(
    ex,
    `SELECT platform, ${COUNTS} FROM push_notifications WHERE send_id = $1 GROUP BY platform`,
    [sendId],
  );
  const of = (p: 'Android' | 'iOS') => toCounts(rows.find((r) => r.platform === p) ?? {});
  return { android: of('Android'), ios: of('iOS') };
}

/** The app's campaigns whose workflow may run or wait to start (deleting the app cancels them). */
export async function liveCampaignIds(ex: Executor, appId: string, live: readonly CampaignStatus[]): Promise<string[]> {
  const { rows } = await sql<{ id: string }>(ex, `SELECT id FROM push_campaigns WHERE app_id = $1 AND status = ANY($2::text[])`, [appId, [...live]]);
  return rows.map((r) => r.id);
}
