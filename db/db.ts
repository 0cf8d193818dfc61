import { EntityManager, type DataSource } from 'typeorm';
import { createDataSource, poolOf } from './data-source';

export interface QueryRows<R> {
  rows: R[];
  rowCount: number | null;
}

/** Raw SQL with node-postgres-shaped results, for SQL that needs Postgres itself. */
export interface Queryable {
  query<R = any>(sql: string, params?: unknown[]): Promise<QueryRows<R>>;
}

/**
 * What a command and a repository function take as their first parameter: the Db (each
 * statement on its own pooled connection), or the EntityManager of the transaction it
 * runs in (`db.transaction(async (m) => …)`).
 */
export type Executor = EntityManager | { manager: EntityManager };

/**
 * What a raw-SQL-only read takes: an Executor, or a bare node-postgres pool. Only the
 * ticket reads the benchmark's database peer runs take it (bench/peers/bare-koa.ts runs
 * the app's own SQL over node-postgres without TypeORM; docs/benchmarks.md).
 */
export type SqlExecutor = Executor | Queryable;

/**
 * The storage handle of a process. TypeORM owns the pool, the entities and the
 * migrations; everything here goes through TypeORM's public API (DataSource, QueryRunner,
 * EntityManager), never the driver's internals.
 */
export interface Db extends Queryable {
  dataSource: DataSource;
  /** the manager outside any transaction: each call takes its own pooled connection */
  manager: EntityManager;
  /**
   * The one transaction API: runs `fn` in one transaction (the server's default isolation, READ
   * COMMITTED, no retry: a command that needs a row stable takes its lock), passed
   * explicitly as its EntityManager; a throw rolls it back.
   */
  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T>;
  /** LISTEN on a dedicated connection; `onError` is told when that connection dies. */
  listen(channel: string, handlers: { onNotify: (payload: string) => void; onError: (err: Error) => void }): Promise<Listener>;
  close(): Promise<void>;
}

export interface Listener {
  close(): Promise<void>;
}

export function managerOf(executor: Executor): EntityManager {
  return executor instanceof EntityManager ? executor : executor.manager;
}

/**
 * Raw SQL with the rows and the affected count. Inside a transaction it runs on that
 * transaction's connection through TypeORM's query API. Outside one it goes straight to
 * the DataSource's node-postgres pool: TypeORM's query runner around a lone query (a
 * runner, its EntityManager, connect, broadcast, release) cost 100–230 µs of CPU per read
 * request, up to a quarter of a list request (docs/benchmarks.md, "TypeORM and the hot
 * paths").
 */
export async function sql<R = any>(executor: SqlExecutor, text: string, params?: unknown[]): Promise<QueryRows<R>> {
  // a bare pool (checked after EntityManager, which has a query() of another shape)
  if (!(executor instanceof EntityManager) && !('manager' in executor)) return executor.query<R>(text, params);
  const m = managerOf(executor);
  if (m.queryRunner) {
    const result = await m.queryRunner.query(text, params as any[] | undefined, true);
    return { rows: (result.records ?? []) as R[], rowCount: result.affected ?? null };
  }
  const pool = poolOf(m.connection);
  if (!pool) throw new Error('sql(): the DataSource is not initialized (or not made by createDataSource)');
  const result = await pool.query(text, params as unknown[] | undefined);
  return { rows: result.rows as R[], rowCount: result.rowCount };
}

export async function connectDb(url: string, poolSize = 20): Promise<Db> {
  const dataSource = createDataSource(url, poolSize);
  await dataSource.initialize();
  const manager = dataSource.manager;
  return {
    dataSource,
    manager,
    query: (text, params) => sql(manager, text, params),
    transaction: (fn) => dataSource.transaction(fn),
    async listen(channel, handlers) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
      const runner = dataSource.createQueryRunner();
      // The runner's own connection, held until close(): a LISTEN lives on one session.
      const connection = await runner.connect();
      const onNotification = (n: { channel: string; payload?: string }) => {
        if (n.channel === channel) handlers.onNotify(n.payload ?? '');
      };
      connection.on('notification', onNotification);
      // The runner releases a broken connection to the pool as broken by itself.
      connection.on('error', handlers.onError);
      await runner.query(`LISTEN ${channel}`);
      return {
        async close() {
          connection.removeListener('notification', onNotification);
          if (runner.isReleased) return;
          await runner.query('UNLISTEN *').catch(() => undefined);
          connection.removeListener('error', handlers.onError);
          await runner.release();
        },
      };
    },
    close: () => dataSource.destroy(),
  };
}
