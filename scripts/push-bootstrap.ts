// The push part of `npm run admin -- bootstrap`: a demo account (company, owner,
// membership), one app with the local FCM and APNs credentials the push sink accepts
// (lib/push/demo-credentials.ts), and an
// app API key. Printed as `push: { email, password, appId, apiKey }`; every run prints
// the same values while they still work. The password is derived from the checkout's
// secret-box key (so every run, and two runs at once, agree on it without storing it);
// the key is kept beside the ticketing demo key under .data/, owner-only, because only
// its hash is stored.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Db } from '../db/db';
import { insertPushApiKey } from '../db/repositories/push-api-keys';
import { setPushAppCredentials } from '../db/repositories/push-apps';
import {
  ensurePushApp,
  ensurePushCompany,
  ensurePushMembership,
  ensurePushUser,
  isLivePushKey,
  makePushSuperAdmin,
} from '../db/repositories/push-demo';
import { findPushUserById, setPushUserPassword } from '../db/repositories/push-users';
import { hashPassword, verifyPassword } from '../domain/auth/passwords';
import { hashApiKey } from '../lib/api-keys';
import type { Config } from '../lib/config';
import { generatePushApiKey } from '../lib/push/api-keys';
import { sealCredentials } from '../lib/push/credential-box';
import { demoCredentials } from '../lib/push/demo-credentials';
import { masterKey } from '../lib/crypto/master-key';

export const PUSH_DEMO = {
  companyId: '00000000-0000-4000-8000-000000000001',
  userId: '00000000-0000-4000-8000-000000000002',
  appId: '00000000-0000-4000-8000-000000000003',
  email: 'demo@push.example.com',
  operatorCompanyId: '00000000-0000-4000-8000-000000000004',
  superAdminId: '00000000-0000-4000-8000-000000000005',
  superAdminEmail: 'operator@push.example.com',
};

interface Stored {
  keyId?: string;
  apiKey?: string;
}

async function readStored(file: string): Promise<Stored> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) ?? {};
  } catch {
    return {};
  }
}

async function writeStored(file: string, s: Stored): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(s, null, 2) + '\n', { mode: 0o600 });
  await chmod(file, 0o600);
}

export async function bootstrapPush(db: Db, config: Config, ticketingCredentialsFile: string) {
  const file = join(dirname(ticketingCredentialsFile), `push-${basename(ticketingCredentialsFile)}`);
  const stored = await readStored(file);

  const password = derivedPassword(config, 'push demo password v1');
  await ensureAccountWithApp(db, config, {
    companyId: PUSH_DEMO.companyId,
    companyName: 'Demo Studio',
    userId: PUSH_DEMO.userId,
    email: PUSH_DEMO.email,
    name: 'Demo Developer',
    password,
    app: { id: PUSH_DEMO.appId, name: 'Demo App', bundleId: 'com.example.demo' },
  });

  let { keyId, apiKey } = stored;
  if (!keyId || !apiKey || !(await isLivePushKey(db, keyId, hashApiKey(apiKey), PUSH_DEMO.appId))) {
    ({ keyId, apiKey } = await mintAppKey(db, PUSH_DEMO.appId, 'demo bootstrap key'));
  }
  await writeStored(file, { keyId, apiKey });
  return { email: PUSH_DEMO.email, password, appId: PUSH_DEMO.appId, apiKey, ...(await bootstrapSuperAdmin(db, config)) };
}

/**
 * A company, its owner with `password`, the membership and one Android app with the local
 * sink's FCM and APNs credentials (lib/push/demo-credentials.ts), each made once; the
 * credentials are written on every call, so the app keeps working with the sink after its
 * credentials file was regenerated. Bootstrap's demo account and every create-tenant's.
 */
async function ensureAccountWithApp(
  db: Db,
  config: Config,
  a: { companyId: string; companyName: string; userId: string; email: string; name: string; password: string; app: { id: string; name: string; bundleId: string } },
): Promise<void> {
  await ensureAccount(db, a);
  await ensurePushApp(db, { id: a.app.id, companyId: a.companyId, name: a.app.name, bundleId: a.app.bundleId, platform: 'Android' });
  const creds = demoCredentials();
  await setPushAppCredentials(db, a.app.id, 'fcm', sealCredentials(config, a.app.id, 'fcm', { serviceAccountJson: creds.serviceAccountJson }));
  await setPushAppCredentials(db, a.app.id, 'apns', sealCredentials(config, a.app.id, 'apns', creds.apns));
}

/** A new API key of an app; its secret is returned once. */
async function mintAppKey(db: Db, appId: string, name: string): Promise<{ keyId: string; apiKey: string }> {
  const k = generatePushApiKey();
  const keyId = randomUUID();
  await insertPushApiKey(db, { id: keyId, appId, name, prefix: k.prefix, keyHash: k.hash });
  return { keyId, apiKey: k.key };
}

/**
 * A new push customer (`npm run admin -- create-tenant`): a company named `name`, its owner
 * with a random password, an app and an app key, made the way bootstrap makes its demo
 * account; printed once, nothing stored.
 */
export async function createPushCustomer(db: Db, config: Config, name: string): Promise<{ email: string; password: string; appId: string; apiKey: string }> {
  const companyId = randomUUID();
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'tenant';
  const email = `owner+${companyId.slice(0, 8)}@${slug}.example`;
  const password = randomBytes(15).toString('base64url');
  const appId = randomUUID();
  await ensureAccountWithApp(db, config, {
    companyId,
    companyName: name,
    userId: randomUUID(),
    email,
    name: `${name} Owner`,
    password,
    app: { id: appId, name: `${name} App`, bundleId: `com.example.${slug.replace(/-/g, '') || 'app'}` },
  });
  const { apiKey } = await mintAppKey(db, appId, 'create-tenant key');
  return { email, password, appId, apiKey };
}

/**
 * The local stack's operator of trial approvals (docs/trial-onboarding.md): a super-admin
 * in a company of its own, its password derived like the demo one. Never in production,
 * where an operator is made on purpose (`UPDATE push_users SET is_super_admin = true`).
 */
async function bootstrapSuperAdmin(db: Db, config: Config) {
  if (config.env === 'production') return {};
  const password = derivedPassword(config, 'push super-admin password v1');
  const userId = await ensureAccount(db, {
    companyId: PUSH_DEMO.operatorCompanyId,
    companyName: 'Push Operators',
    userId: PUSH_DEMO.superAdminId,
    email: PUSH_DEMO.superAdminEmail,
    name: 'Push Operator',
    password,
  });
  await makePushSuperAdmin(db, userId);
  return { superAdminEmail: PUSH_DEMO.superAdminEmail, superAdminPassword: password };
}

function derivedPassword(config: Config, purpose: string): string {
  return createHmac('sha256', masterKey(config)).update(purpose).digest('base64url').slice(0, 20);
}

/** A company, its owner with `password` and the membership, made once; answers the owner's id. */
async function ensureAccount(
  db: Db,
  a: { companyId: string; companyName: string; userId: string; email: string; name: string; password: string },
): Promise<string> {
  const userId = await db.transaction(async (m) => {
    await ensurePushCompany(m, { id: a.companyId, name: a.companyName });
    const id = await ensurePushUser(m, { id: a.userId, email: a.email, name: a.name, passwordHash: await hashPassword(a.password) });
    await ensurePushMembership(m, id, a.companyId);
    return id;
  });
  const user = (await findPushUserById(db, userId))!;
  if (!(await verifyPassword(user.passwordHash, a.password))) {
    // changed since (or the secret-box key was): the password is the derived one again
    await setPushUserPassword(db, userId, await hashPassword(a.password));
  }
  return userId;
}
