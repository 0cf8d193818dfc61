// `npm run admin -- bootstrap`: idempotently creates the demo tenant of the ticketing
// API and the push API's demo account, and prints ONE JSON object with what a client
// needs to call them:
//   { "ticketing": { "organizationId", "workspaceId", "apiKey", "agentId" },
//     "push": { "email", "password", "appId", "apiKey" } }   (scripts/push-bootstrap.ts)
// Running it again prints the same ids and, while it is still valid, the same key.
// `npm run admin -- rotate-signing-key`: a new token signing key (docs/auth.md, "Signing keys").
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { connectDb, type Db } from '../db/db';
import { ensureAgent } from '../db/repositories/agents';
import { apiKeysRepository } from '../db/repositories/api-keys';
import { ensureOrganization } from '../db/repositories/organizations';
import { ensureWorkspace } from '../db/repositories/workspaces';
import { generateApiKey, hashApiKey } from '../lib/api-keys';
import { masterKey } from '../lib/crypto/master-key';
import { rotateSigningKey } from '../api/kit/auth/signing-keys';
import { loadConfig } from '../lib/config';
import { newId } from '../lib/ids';
import { loadEnvFile } from './env-file';
import { bootstrapPush } from './push-bootstrap';

// Fixed, well-known ids (same shape as generated ones: prefix + 26 base32 characters),
// so every run finds the rows of the previous one with ON CONFLICT DO NOTHING.
export const DEMO = {
  organizationId: 'org_00000000000000000000000001',
  workspaceId: 'ws_00000000000000000000000001',
  agentId: 'agt_00000000000000000000000001',
};
const KEY_NAME = 'demo bootstrap key';

// Keys are stored hashed, so the plaintext of the demo key can only be reused if we kept
// it: it lives beside the other local state under .data/ (gitignored), readable by the
// owner only. A DB reset or a revocation makes it stale; then a new key is minted.
// DEMO_CREDENTIALS_FILE moves it (tests bootstrap their own database without touching it).
const CREDENTIALS_FILE = resolve(process.env.DEMO_CREDENTIALS_FILE || resolve(__dirname, '..', '.data', 'demo-credentials.json'));

interface StoredCredentials {
  keyId: string;
  apiKey: string;
}

async function readCredentials(): Promise<StoredCredentials | null> {
  try {
    const parsed = JSON.parse(await readFile(CREDENTIALS_FILE, 'utf8'));
    return typeof parsed?.apiKey === 'string' && typeof parsed?.keyId === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

async function writeCredentials(c: StoredCredentials): Promise<void> {
  await mkdir(dirname(CREDENTIALS_FILE), { recursive: true });
  await writeFile(CREDENTIALS_FILE, JSON.stringify(c, null, 2) + '\n', { mode: 0o600 });
  await chmod(CREDENTIALS_FILE, 0o600);
}

async function ensureDemoKey(db: Db): Promise<string> {
  const stored = await readCredentials();
  const keys = apiKeysRepository(db);
  if (stored && (await keys.isUsable(stored.keyId, hashApiKey(stored.apiKey), DEMO.organizationId))) return stored.apiKey;
  const { key, prefix, hash } = generateApiKey('sk_test_');
  const keyId = newId('key');
  await keys.insert({
    id: keyId,
    organizationId: DEMO.organizationId,
    workspaceId: null,
    name: KEY_NAME,
    type: 'server',
    environment: 'test',
    prefix,
    hash,
    scopes: ['admin:all'],
    playerId: null,
    createdBy: null,
  });
  await writeCredentials({ keyId, apiKey: key });
  return key;
}

async function bootstrapTicketing(db: Db) {
  await db.transaction(async (m) => {
    await ensureOrganization(m, { id: DEMO.organizationId, name: 'Demo Studio', plan: 'scale' });
    await ensureWorkspace(m, { id: DEMO.workspaceId, organizationId: DEMO.organizationId, name: 'Demo sandbox', environment: 'sandbox' });
    await ensureAgent(m, { id: DEMO.agentId, workspaceId: DEMO.workspaceId, name: 'Demo Agent', email: 'agent@demo.example.com' });
  });
  const apiKey = await ensureDemoKey(db);
  return { organizationId: DEMO.organizationId, workspaceId: DEMO.workspaceId, apiKey, agentId: DEMO.agentId };
}

const COMMANDS: Record<string, (db: Db) => Promise<unknown>> = {
  async bootstrap(db) {
    return { ticketing: await bootstrapTicketing(db), push: await bootstrapPush(db, loadConfig(), CREDENTIALS_FILE) };
  },
  async 'rotate-signing-key'(db) {
    const config = loadConfig();
    if (config.jwtPrivateKeyPem) throw new Error('JWT_PRIVATE_KEY is set: the signing key comes from it, not from signing_keys (docs/auth.md)');
    return rotateSigningKey(db, masterKey(config));
  },
};

async function main() {
  const command = process.argv[2];
  const run = command ? COMMANDS[command] : undefined;
  if (!run) {
    console.error(`usage: npm run admin -- <${Object.keys(COMMANDS).join('|')}>`);
    process.exit(2);
  }
  // the checkout's local stack (database, secret-box key) unless the environment says otherwise
  loadEnvFile(resolve(__dirname, '..', '.data', 'env'));
  const db = await connectDb(loadConfig().databaseUrl, 2);
  try {
    // stdout carries only the JSON, so callers can pipe it to jq
    process.stdout.write(JSON.stringify(await run(db)) + '\n');
  } finally {
    await db.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
