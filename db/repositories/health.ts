// The health endpoints' database check: one round trip that touches no table.
import { sql, type Executor } from '../db';

/** Resolves when PostgreSQL answers a query; rejects when it does not. */
export async function pingDatabase(executor: Executor): Promise<void> {
  await sql(executor, 'SELECT 1');
}
