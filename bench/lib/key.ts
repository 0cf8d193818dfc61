// The benches' admin key: a real sk_live_ admin:all key row (hash only, as the API writes
// it), written through the repositories by the test factory over a connection of its own.
import { connectDb } from '../../db/db';
import { createApiKey } from '../../test/support/factories';

export async function createBenchKey(databaseUrl: string, organizationId: string, name: string): Promise<{ key: string; id: string }> {
  const db = await connectDb(databaseUrl, 1);
  try {
    return await createApiKey(db, { id: organizationId, plan: 'scale' }, { name, scopes: ['admin:all'] });
  } finally {
    await db.close();
  }
}
