// push_sends and the push_notifications rows of a send: a send is written in one
// transaction with its rows (insertSend, in domain/push/send.ts's createSend), the send
// workflow's activities page through them by
// `position` and record each device's outcome (pageToSend, recordOutcomes, finishSend).
// SQL through the query API: unnest inserts and updates of up to 1,000 rows in one
// statement, and the page joins the device's current token and state.
import { randomUUID } from 'node:crypto';
import { sql, type Executor } from '../db';

export interface NewSend {
  appId: string;
  campaignId?: string | null;
  title: string;
  body: string;
  deepLink: string | null;
  imageUrl?: string | null;
  customData: Record<string, unknown>;
}

/** The app's devices among `deviceIds` that may be sent to: known to the app and active. */
export async function sendableDevices(executor: Executor, appId: string, deviceIds: string[]): Promise<Map<string, 'Android' | 'iOS'>> {
  if (!deviceIds.length) return new Map();
  const { rows } = await sql<{ id: string; platform: 'Android' | 'iOS' }>(
    executor,
    `SELECT id, platform FROM push_devices WHERE app_id = $1 AND id = ANY($2::uuid[]) AND is_active`,
    [appId, deviceIds],
  );
  return new Map(rows.map((r) => [r.id, r.platform]));
}

/**
 * The send and one `queued` notification per device, position = index in `devices`; the
 * ids answered are the notificationIds in that order. Runs inside the caller's transaction.
 */
export async function insertSend(
  executor: Executor,
  send: NewSend,
  devices: { id: string; platform: 'Android' | 'iOS' }[],
): Promise<{ sendId: string; notificationIds: string[] }> {
  const sendId = randomUUID();
  const notificationIds = devices.map(() => randomUUID());
  await sql(
    executor,
    `INSERT INTO push_sends (id, app_id, campaign_id, title, body, deep_link, image_url, custom_data)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`,
    [sendId, send.appId, send.campaignId ?? null, send.title, send.body, send.deepLink, send.imageUrl ?? null, JSON.stringify(send.customData)],
  );
  await sql(
    executor,
    `INSERT INTO push_notifications (id, send_id, app_id, device_id, position, platform)
     SELECT n.id, $1, $2, n.device_id, n.position - 1, n.platform
       FROM unnest($3::uuid[], $4::uuid[], $5::text[]) WITH ORDINALITY AS n(id, device_id, platform, position)`,
    [sendId, send.appId, notificationIds, devices.map((d) => d.id), devices.map((d) => d.platform)],
  );
  return { sendId, notificationIds };
}

/**
 * A send whose notifications carry their own text (a batch of event trigger firings of
 * one app, domain/push/send-trigger-batch.ts): one `queued` row per entry, its id the
 * entry's (the firing's id), position = index. The send's own title/body name the batch
 * (what lists of sends show); each push takes its row's text. Inside the caller's transaction.
 */
export async function insertTextedSend(
  executor: Executor,
  send: { appId: string; title: string; body: string },
  rows: Array<{ id: string; deviceId: string; platform: 'Android' | 'iOS'; title: string; body: string }>,
): Promise<string> {
  const sendId = randomUUID();
  await sql(
    executor,
    `INSERT INTO push_sends (id, app_id, title, body, deep_link, custom_data) VALUES ($1, $2, $3, $4, NULL, '{}'::jsonb)`,
    [sendId, send.appId, send.title, send.body],
  );
  await sql(
    executor,
    `INSERT INTO push_notifications (id, send_id, app_id, device_id, position, platform, title, body)
     SELECT n.id, $1, $2, n.device_id, n.position - 1, n.platform, n.title, n.body
       FROM unnest($3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS n(id, device_id, platform, title, body, position)`,
    [sendId, send.appId, rows.map((r) => r.id), rows.map((r) => r.deviceId), rows.map((r) => r.platform), rows.map((r) => r.title), rows.map((r) => r.body)],
  );
  return sendId;
}

/** A send's notificationIds in position order (the order its answer listed them); null: no such send. */
export async function notificationIdsOf(executor: Executor, sendId: string): Promise<string[] | null> {
  const { rows } = await sql<{ ids: string[] | null }>(
    executor,
    `SELECT (SELECT array_agg(n.id ORDER BY n.position) FROM push_notifications n WHERE n.send_id = s.id) AS ids
       FROM push_sends s WHERE s.id = $1`,
    [sendId],
  );
  return rows.length ? (rows[0].ids ?? []) : null;
}

export interface SendMessage {
  id: string;
  appId: string;
  campaignId: string | null;
  title: string;
  body: string;
  deepLink: string | null;
  imageUrl: string | null;
  customData: Record<string, unknown>;
}

/** The send's message, and it moves to `sending` (the first page's call). Null: no such send. */
export async function startSending(executor: Executor, sendId: string): Promise<SendMessage | null> {
  const { rows } = await sql<SendMessage>(
    executor,
    `UPDATE push_sends SET status = CASE WHEN status = 'queued' THEN 'sending' ELSE status END
      WHERE id = $1
      RETURNING id, app_id AS "appId", campaign_id AS "campaignId", title, body, deep_link AS "deepLink",
                image_url AS "imageUrl", custom_data AS "customData"`,
    [sendId],
  );
  return rows[0] ?? null;
}

export interface PageRow {
  notificationId: string;
  position: number;
  status: 'queued' | 'sent' | 'failed' | 'cancelled';
  platform: 'Android' | 'iOS';
  deviceId: string | null;
  /** null when the device was deleted since the send was queued */
  token: string | null;
  deviceActive: boolean | null;
  /** the notification's own text (an event trigger firing's); null: the send's */
  title: string | null;
  body: string | null;
}

/**
 * One page of a send: its rows after `afterPosition`, in position order, with each
 * device's token now; `more` when rows follow the page.
 */
export async function pageToSend(executor: Executor, sendId: string, afterPosition: number, limit: number): Promise<{ rows: PageRow[]; more: boolean }> {
  const { rows } = await sql<PageRow>(
    executor,
    // Positions are dense (0..N-1 in every send), so the page is also bounded above: the
    // rows read are the page's whatever the plan. Bounded below only, a send just written
    // (a campaign's 100,000-row snapshot, before the table has statistics) was read by a
    // bitmap scan of all its remaining rows, sorted for each page: 100 ms a page, not 4.
    `SELECT n.id AS "notificationId", n.position, n.status, n.platform, n.device_id AS "deviceId",
            d.device_token AS token, d.is_active AS "deviceActive", n.title, n.body
       FROM push_notifications n LEFT JOIN push_devices d ON d.id = n.device_id
      WHERE n.send_id = $1 AND n.position > $2 AND n.position <= $2 + $3
      ORDER BY n.position LIMIT $3`,
    [sendId, afterPosition, limit + 1],
  );
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

export interface Outcome {
  notificationId: string;
  ok: boolean;
  error?: string;
  /** the device's token is dead: the device becomes inactive */
  deadDeviceId?: string | null;
}

/**
 * Records outcomes of rows still `queued` (a repeat never rewrites a recorded one) and
 * deactivates dead tokens' devices, in one statement. Answers how many rows it moved.
 *
 * Every UPDATE finds its rows by primary key (`id = ANY(...)`), never by `status`: the
 * statistics of `status` swing between "all queued" and "all sent" as sends come and
 * go, and a plan driven by a stale "status = 'queued' is rare" estimate scans every
 * queued row of every send for each page (docs/push.md, "Sending"). Sent rows need no
 * join at all; failed ones join their error text.
 */
export async function recordOutcomes(executor: Executor, outcomes: Outcome[]): Promise<{ sent: number; failed: number }> {
  if (!outcomes.length) return { sent: 0, failed: 0 };
  const failures = outcomes.filter((o) => !o.ok);
  const { rows } = await sql<{ sent: number; failed: number }>(
    executor,
    `WITH sent AS (
       UPDATE push_notifications SET status = 'sent', sent_at = now()
        WHERE id = ANY($1::uuid[]) AND status = 'queued'
       RETURNING 1
     ), failed AS (
       UPDATE push_notifications n SET status = 'failed', failed_at = now(), error = f.error
         FROM unnest($2::uuid[], $3::text[]) AS f(id, error)
        WHERE n.id = ANY($2::uuid[]) AND n.id = f.id AND n.status = 'queued'
       RETURNING 1
     ), dead AS (
       UPDATE push_devices SET is_active = false, updated_at = now()
        WHERE id = ANY($4::uuid[]) AND is_active
       RETURNING id
     )
     SELECT (SELECT count(*) FROM sent)::int AS sent, (SELECT count(*) FROM failed)::int AS failed`,
    [
      outcomes.filter((o) => o.ok).map((o) => o.notificationId),
      failures.map((o) => o.notificationId),
      failures.map((o) => (o.error ?? 'failed').slice(0, 500)),
      outcomes.flatMap((o) => (o.deadDeviceId ? [o.deadDeviceId] : [])),
    ],
  );
  return rows[0];
}

export async function finishSend(executor: Executor, sendId: string): Promise<void> {
  await sql(executor, `UPDATE push_sends SET status = 'done', finished_at = COALESCE(finished_at, now()) WHERE id = $1`, [sendId]);
}

/** The page's rows by recorded state (positions first..last of one send). */
export async function pageCounts(executor: Executor, sendId: string, first: number, last: number): Promise<{ sent: number; failed: number }> {
  const { rows } = await sql<{ sent: string; failed: string }>(
    executor,
    `SELECT count(*) FILTER (WHERE status = 'sent') AS sent, count(*) FILTER (WHERE status = 'failed') AS failed
       FROM push_notifications WHERE send_id = $1 AND position BETWEEN $2 AND $3`,
    [sendId, first, last],
  );
  return { sent: Number(rows[0].sent), failed: Number(rows[0].failed) };
}

export interface SealedCredentials {
  id: string;
  fcmCredentials: string | null;
  apnsCredentials: string | null;
}

/** An app's sealed push credentials, for the worker that opens its transports. */
export async function sealedCredentials(executor: Executor, appId: string): Promise<SealedCredentials | null> {
  const { rows } = await sql<SealedCredentials>(
    executor,
    `SELECT id, fcm_credentials AS "fcmCredentials", apns_credentials AS "apnsCredentials" FROM push_apps WHERE id = $1`,
    [appId],
  );
  return rows[0] ?? null;
}
