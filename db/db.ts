import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source';

export interface Queryable {
  query<R extends QueryResultRow = any>(sql: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

/**
 * The storage handle every repository takes. TypeORM owns the connection pool and
 * the migrations; queries go straight to its pg pool, because the hot read paths are
 * measured against bare node-postgres and the query runner adds nothing we use.
 */
export interface Db extends Queryable {
  dataSource: DataSource;
  pool: Pool;
  tx<T>(fn: (client: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function connectDb(url: string, poolSize = 20): Promise<Db> {
  const dataSource = createDataSource(url, poolSize);
  await dataSource.initialize();
  const pool: Pool = (dataSource.driver as any).master;
  return {
    dataSource,
    pool,
    query: (sql, params) => pool.query(sql, params as any[]),
    async tx(fn) {
      const client: PoolClient = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(client as unknown as Queryable);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => dataSource.destroy(),
  };
}
