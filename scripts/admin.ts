// `npm run admin -- bootstrap`: idempotently creates the demo tenant of the ticketing
// API, the push API's demo account and the platform API's demo tenant, and prints ONE JSON
// object with what a client needs to call them:
//   { "ticketing": { "organizationId", "workspaceId", "apiKey", "agentId" },
//     "push": { "email", "password", "appId", "apiKey" },        (scripts/push-bootstrap.ts)
//     "platform": { "organizationId", "workspaceId", "adminToken", "agentToken" } }
//                                                                 (scripts/platform-bootstrap.ts)
// Running it again prints the same ids and, while they are still valid, the same secrets.
// `npm run admin -- create-tenant --name <name>`: a NEW customer of all three APIs on every
// call, printed in the same shape (docs/platform.md, "Tokens, limits and tenants").
// `npm run admin -- set-limits <platform organization id> <reads> <writes>`: an enterprise
// customer's per-token limits a minute (`default` for the spec's 120 / 60).
// `npm run admin -- rotate-signing-key`: a new token signing key (docs/auth.md, "Signing keys").
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { connectDb, type Db } from '../db/db';
import { ensureAgent } from '../db/repositories/agents';
import { apiKeysRepository } from '../db/repositories/api-keys';
import { ensureOrganization } from '../db/repositories/organizations';
import { setPlatformLimits } from '../db/repositories/platform-organizations';
import { ensureWorkspace } from '../db/repositories/workspaces';
import { generateApiKey, hashApiKey } from '../lib/api-keys';
import { masterKey } from '../lib/crypto/master-key';
import { rotateSigningKey } from '../api/kit/auth/signing-keys';
import { loadConfig } from '../lib/config';
import { newId } from '../lib/ids';
import { loadEnvFile } from './env-file';
import { createPlatformCustomer, bootstrapPlatform } from './platform-bootstrap';
import { bootstrapPush, createPushCustomer } from './push-bootstrap';

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

/** A sandbox admin key (`sk_test_`, `admin:all`) of a /v1 organization; its secret is returned once. */
async function mintAdminKey(db: Db, organizationId: string, name: string): Promise<{ keyId: string; apiKey: string }> {
  const { key, prefix, hash } = generateApiKey('sk_test_');
  const keyId = newId('key');
  await apiKeysRepository(db).insert({
    id: keyId,
    organizationId,
    workspaceId: null,
    name,
    type: 'server',
    environment: 'test',
    prefix,
    hash,
    scopes: ['admin:all'],
    playerId: null,
    createdBy: null,
  });
  return { keyId, apiKey: key };
}

async function ensureDemoKey(db: Db): Promise<string> {
  const stored = await readCredentials();
  const keys = apiKeysRepository(db);
  if (stored && (await keys.isUsable(stored.keyId, hashApiKey(stored.apiKey), DEMO.organizationId))) return stored.apiKey;
  const minted = await mintAdminKey(db, DEMO.organizationId, KEY_NAME);
  await writeCredentials(minted);
  return minted.apiKey;
}

/** A /v1 organization (plan scale) with a sandbox workspace and an agent, each made once (bootstrap's demo and every create-tenant's). */
async function ensureTicketingOrganization(
  db: Db,
  t: { organizationId: string; workspaceId: string; agentId: string; name: string; workspaceName: string; agentName: string; agentEmail: string },
): Promise<void> {
  await db.transaction(async (m) => {
    await ensureOrganization(m, { id: t.organizationId, name: t.name, plan: 'scale' });
    await ensureWorkspace(m, { id: t.workspaceId, organizationId: t.organizationId, name: t.workspaceName, environment: 'sandbox' });
    await ensureAgent(m, { id: t.agentId, workspaceId: t.workspaceId, name: t.agentName, email: t.agentEmail });
  });
}

async function bootstrapTicketing(db: Db) {
  await ensureTicketingOrganization(db, { ...DEMO, name: 'Demo Studio', workspaceName: 'Demo sandbox', agentName: 'Demo Agent', agentEmail: 'agent@demo.example.com' });
  const apiKey = await ensureDemoKey(db);
  return { organizationId: DEMO.organizationId, workspaceId: DEMO.workspaceId, apiKey, agentId: DEMO.agentId };
}

/** A new /v1 customer (create-tenant): an organization, its sandbox workspace, an agent and an admin key, printed once. */
async function createTicketingCustomer(db: Db, name: string) {
  const ids = { organizationId: newId('org'), workspaceId: newId('ws'), agentId: newId('agt') };
  await ensureTicketingOrganization(db, { ...ids, name, workspaceName: `${name} sandbox`, agentName: `${name} Agent`, agentEmail: `agent+${ids.agentId.slice(-6)}@${slugOf(name)}.example` });
  const { apiKey } = await mintAdminKey(db, ids.organizationId, 'create-tenant key');
  return { organizationId: ids.organizationId, workspaceId: ids.workspaceId, apiKey, agentId: ids.agentId };
}

const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'tenant';

/** A command's refusal of its arguments: printed with the usage, exit code 2. */
class UsageError extends Error {}

/** `--name <name>` (or `--name=<name>`): 1 to 200 characters, not blank. */
function nameArgument(args: string[]): string {
  let name: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--name') name = args[++i];
    else if (args[i].startsWith('--name=')) name = args[i].slice('--name='.length);
    else throw new UsageError(`unknown argument '${args[i]}'`);
  }
  if (name === undefined || !name.trim() || name.length > 200 || name.includes('\u0000')) throw new UsageError('create-tenant --name <name> (1 to 200 characters)');
  return name.trim();
}

/** A limit a minute: a whole number from 1 to 1,000,000, or `default` (null: the spec's). */
function limitArgument(value: string | undefined, what: string): number | null {
  if (value === 'default') return null;
  if (!value || !/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > 1_000_000) {
    throw new UsageError(`set-limits <organizationId> <reads> <writes>: ${what} must be a whole number from 1 to 1000000, or 'default'`);
  }
  return Number(value);
}

const COMMANDS: Record<string, (db: Db, args: string[]) => Promise<unknown>> = {
  async bootstrap(db) {
    const config = loadConfig();
    return {
      ticketing: await bootstrapTicketing(db),
      push: await bootstrapPush(db, config, CREDENTIALS_FILE),
      platform: await bootstrapPlatform(db, config, CREDENTIALS_FILE),
    };
  },
  async 'create-tenant'(db, args) {
    const name = nameArgument(args);
    return {
      platform: await createPlatformCustomer(db, name),
      ticketing: await createTicketingCustomer(db, name),
      push: await createPushCustomer(db, loadConfig(), name),
    };
  },
  async 'set-limits'(db, args) {
    const [organizationId, reads, writes, ...rest] = args;
    if (!organizationId || rest.length) throw new UsageError('set-limits <organizationId> <reads> <writes>');
    const readLimit = limitArgument(reads, 'reads');
    const writeLimit = limitArgument(writes, 'writes');
    if (!(await setPlatformLimits(db, organizationId, readLimit, writeLimit))) throw new UsageError(`no platform organization '${organizationId}'`);
    // null: the default (the spec's 120 / 60, or RATE_LIMITS'); each API process keeps a
    // token's row up to 30 s (api/platform/auth/token-cache.ts), so it shows within 30 s
    return { organizationId, readLimit, writeLimit };
  },
  async 'rotate-signing-key'(db) {
    const config = loadConfig();
    if (config.jwtPrivateKeyPem) throw new Error('JWT_PRIVATE_KEY is set: the signing key comes from it, not from signing_keys (docs/auth.md)');
    return rotateSigningKey(db, masterKey(config));
  },
};

async function main() {
  const [command, ...args] = process.argv.slice(2);
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
    process.stdout.write(JSON.stringify(await run(db, args)) + '\n');
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`npm run admin -- ${command}: ${err.message}`);
    process.exitCode = 2;
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
