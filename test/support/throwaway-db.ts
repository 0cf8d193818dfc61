// A database of its own for a test that changes what every other test shares (the token
// signing keys, say): created on the test cluster, migrated, dropped at the end.
import { Client } from 'pg';
import { MIGRATIONS, createDataSource } from '../../db/data-source';

/** One statement as the test cluster's owner (CREATE / DROP DATABASE), on a connection of its own. */
export async function admin(sql: string): Promise<void> {
  const c = new Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export interface ThrowawayDb {
  url: string;
  /** applies the migrations up to `until` (exclusive; default: all) */
  migrate(until?: Function): Promise<void>;
  drop(): Promise<void>;
}

export async function throwawayDatabase(prefix: string): Promise<ThrowawayDb> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async migrate(until) {
      const upTo = until ? MIGRATIONS.indexOf(until as (typeof MIGRATIONS)[number]) : MIGRATIONS.length;
      const ds = createDataSource(url.toString(), 1);
      ds.setOptions({ migrations: MIGRATIONS.slice(0, upTo) });
      await ds.initialize();
      try {
        await ds.runMigrations({ transaction: 'each' });
      } finally {
        await ds.destroy();
      }
    },
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
