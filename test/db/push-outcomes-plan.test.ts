// Recording a page's outcomes touches that page's rows and nothing else, whatever the
// statistics say. The statistics of push_notifications.status swing between "all
// queued" and "all sent" as sends come and go; a plan driven by a stale "no row is
// queued" estimate once read every queued row of every send for each page of 500
// (150–300 ms of Postgres per page under bench:push). And the update is HOT: no column
// it writes is indexed, and the table leaves room on each page for the new version.
// A database of its own, so that its statistics are this test's alone.
import assert from 'node:assert/strict';
import { connectDb, type Db } from '../../db/db';
import { insertSend, pageToSend, recordOutcomes } from '../../db/repositories/push-sends';
import { createPushCompanyAndApp, insertManyDevices } from '../support/push-device-factories';
import { throwawayDatabase, type ThrowawayDb } from '../support/throwaway-db';

let throwaway: ThrowawayDb;
let db: Db;
let appId: string;
let devices: { id: string; platform: 'Android' }[];

const DEVICES = 500;
/** rows already sent: enough that reading them all costs more than 500 primary-key probes */
const OLD_ROWS = 60_000;

beforeAll(async () => {
  throwaway = await throwawayDatabase('push_outcomes_plan');
  await throwaway.migrate();
  db = await connectDb(throwaway.url, 2);
  ({ appId } = await createPushCompanyAndApp(db));
  devices = await insertManyDevices(db, appId, DEVICES, () => ({ platform: 'Android' as const, deviceMetadata: {} }));
}, 60_000);

afterAll(async () => {
  await db?.close();
  await throwaway?.drop();
});

const newSend = () => db.transaction((m) => insertSend(m, { appId, title: 't', body: 'b', deepLink: null, customData: {} }, devices));

const STATS = `SELECT seq_tup_read::int AS "seqRead", idx_tup_fetch::int AS "indexFetched", n_tup_upd::int AS updated, n_tup_hot_upd::int AS hot
                 FROM pg_stat_xact_user_tables WHERE relname = 'push_notifications'`;

/**
 * What one recordOutcomes call read and wrote on push_notifications. The transaction's
 * own statistics before and after it: since PostgreSQL 15 the "xact" view also holds a
 * backend's earlier transactions until they are flushed, and nothing is flushed while a
 * transaction is open.
 */
async function recordAndCount(outcomes: Parameters<typeof recordOutcomes>[1]) {
  return db.transaction(async (m) => {
    const [before] = await m.query(STATS);
    const moved = await recordOutcomes(m, outcomes);
    const [after] = await m.query(STATS);
    const delta = (k: string) => (after?.[k] ?? 0) - (before?.[k] ?? 0);
    return { moved, seqRead: delta('seqRead'), indexFetched: delta('indexFetched'), updated: delta('updated'), hot: delta('hot') };
  });
}

// First, while push_notifications has no statistics yet (a fresh database: the first big
// campaign's snapshot is the table's first rows).
test('a page of a send just written reads its own rows, not the rest of the send', async () => {
  const { sendId } = await newSend();
  await db.query(
    `INSERT INTO push_notifications (id, send_id, app_id, device_id, position, platform)
     SELECT gen_random_uuid(), $1, $2, ($3::uuid[])[1 + n % $4], $4 + n, 'Android' FROM generate_series(0, $5 - 1) AS n`,
    [sendId, appId, devices.map((d) => d.id), DEVICES, 30_000],
  );
  const r = await db.transaction(async (m) => {
    const [before] = await m.query(STATS);
    const page = await pageToSend(m, sendId, 15_000, 500);
    const [after] = await m.query(STATS);
    return { page, seqRead: (after?.seqRead ?? 0) - (before?.seqRead ?? 0), indexFetched: (after?.indexFetched ?? 0) - (before?.indexFetched ?? 0) };
  });
  assert.equal(r.page.rows.length, 500);
  assert.equal(r.page.rows[0].position, 15_001);
  assert.ok(r.page.more);
  // the page (and the one row that says more follow), by the (send_id, position) key
  assert.equal(r.seqRead, 0, 'push_notifications was scanned');
  assert.ok(r.indexFetched <= 501, `${r.indexFetched} rows fetched for a page of 500`);
});

test('a page of outcomes reads only its own rows although the statistics say nothing is queued', async () => {
  // a table of some size whose every row is recorded sent, then ANALYZE: the statistics
  // now say status is always 'sent' (a small table is rightly scanned whole)
  const { sendId: old } = await newSend();
  await db.query(
    `INSERT INTO push_notifications (id, send_id, app_id, device_id, position, platform, status, sent_at)
     SELECT gen_random_uuid(), $1, $2, ($3::uuid[])[1 + n % $4], $4 + n, 'Android', 'sent', now()
       FROM generate_series(0, $5 - 1) AS n`,
    [old, appId, devices.map((d) => d.id), DEVICES, OLD_ROWS],
  );
  await db.query(`UPDATE push_notifications SET status = 'sent', sent_at = now() WHERE send_id = $1`, [old]);
  await db.query('ANALYZE push_notifications');
  // then four sends' worth of queued rows the statistics do not know about
  const queued = [];
  for (let i = 0; i < 4; i++) queued.push((await newSend()).notificationIds);

  const ids = queued[0];
  const outcomes = ids.map((notificationId, k) =>
    k % 10 === 0 ? { notificationId, ok: false, error: 'messaging/unknown-error: boom' } : { notificationId, ok: true },
  );
  const r = await recordAndCount(outcomes);
  assert.deepEqual(r.moved, { sent: DEVICES - DEVICES / 10, failed: DEVICES / 10 });
  assert.equal(r.updated, DEVICES);
  // the page's rows, by primary key: not the other 1,500 queued rows, not a scan of the 62,000
  assert.equal(r.seqRead, 0, `a sequential scan read ${r.seqRead} rows`);
  assert.ok(r.indexFetched <= DEVICES, `${r.indexFetched} rows fetched for ${DEVICES} outcomes`);
  // no column the update writes is indexed and the page had room: no index entry written
  assert.ok(r.hot >= DEVICES * 0.9, `${r.hot} of ${r.updated} updates were HOT`); // 484 of 500 when written

  // a repeat of the page (a retried activity) moves nothing and still reads only its rows
  const again = await recordAndCount(outcomes);
  assert.deepEqual(again.moved, { sent: 0, failed: 0 });
  assert.equal(again.seqRead, 0);
  assert.ok(again.indexFetched <= DEVICES);
}, 60_000);
