// Applies pending migrations (idempotent). Used by `npm start`, `npm test` and deploys.
import { loadConfig } from '../lib/config';
import { createDataSource } from './data-source';

async function main() {
  const ds = createDataSource(process.env.DATABASE_URL ?? loadConfig().databaseUrl, 2, 0);
  await ds.initialize();
  const applied = await ds.runMigrations({ transaction: 'each' });
  for (const m of applied) console.log(`migrated: ${m.name}`);
  await ds.destroy();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
