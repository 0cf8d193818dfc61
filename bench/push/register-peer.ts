// Peer of POST /api/v1/devices/register: a bare Koa + node-postgres server that runs the
// same upsert (keyed by app + device token) with no auth, rate limit, validation,
// idempotency or presenter: the JSON body in, the row out. Its sessions commit as the
// app's do (`synchronous_commit = on`, db/data-source.ts): the bench clusters run with it
// off, and a peer that does not wait for its commit to reach the WAL on disk would
// measure a different durability, not the app's overhead.
//
//   DATABASE_URL=… PORT=3931 tsx bench/push/register-peer.ts
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import { Pool } from 'pg';

// the app's pool size (db/db.ts) and its sessions' commit setting (db/data-source.ts)
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20, options: '-c synchronous_commit=on' });
const app = new Koa();

const UPSERT = `
  INSERT INTO push_devices (id, app_id, device_token, platform, user_id, device_metadata)
  VALUES ($1, $2, $3, $4, $5, $6::jsonb)
  ON CONFLICT (app_id, device_token) DO UPDATE
     SET platform = EXCLUDED.platform, user_id = EXCLUDED.user_id, device_metadata = EXCLUDED.device_metadata,
         is_active = true, last_seen_at = now(), updated_at = now()
  RETURNING *`;

app.use(async (ctx) => {
  if (ctx.method !== 'POST' || ctx.path !== '/devices/register') return;
  const chunks: Buffer[] = [];
  for await (const c of ctx.req) chunks.push(c as Buffer);
  const b = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const { rows } = await pool.query(UPSERT, [randomUUID(), b.appId, b.deviceToken, b.platform, b.userId ?? null, JSON.stringify(b.deviceMetadata ?? {})]);
  ctx.body = rows[0];
});

const port = Number(process.env.PORT ?? 3931);
app.listen(port, '127.0.0.1', () => console.log(`register peer on ${port}`));
// a clean exit on SIGTERM (the bench's teardown), so a CPU profile (BENCH_PUSH_PROFILE_DIR) is written
process.on('SIGTERM', () => process.exit(0));
