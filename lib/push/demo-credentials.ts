// Credentials for the local stack: a Firebase service account and an APNs .p8 key that
// the local push sink (scripts/push-sink.ts) trusts, so `npm run admin -- bootstrap`
// can give its demo app working FCM and APNs configs and the tests can send through
// the real client code. Google and Apple know nothing of them.
//
// The keys are generated once per checkout into .data/push/demo-credentials.json (no
// private key is committed to the repository); every process of the checkout (the sink,
// the admin bootstrap, the workers, the tests) reads the same file. The first process
// that needs them writes a temporary file and links it into place, so two processes
// starting at once agree on one set.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface DemoCredentials {
  /** a service account file's JSON (project_id, client_email, private_key, …) */
  serviceAccountJson: string;
  apns: { keyId: string; teamId: string; bundleId: string; p8KeyContent: string; useSandbox: boolean };
}

export const DEMO_FCM_PROJECT_ID = 'demo-push-local';
export const DEMO_APNS = { keyId: 'DEMOKEY001', teamId: 'DEMOTEAM01', bundleId: 'com.example.demo' } as const;

const ROOT = resolve(__dirname, '..', '..');

export function demoCredentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.PUSH_DEMO_CREDENTIALS_FILE || join(ROOT, '.data', 'push', 'demo-credentials.json');
}

let cached: { file: string; creds: DemoCredentials } | undefined;

export function demoCredentials(file = demoCredentialsFile()): DemoCredentials {
  if (cached?.file === file) return cached.creds;
  if (!existsSync(file)) writeOnce(file, generateDemoCredentials());
  const creds = JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials;
  cached = { file, creds };
  return creds;
}

/** A fresh set (not stored): tests use it for "credentials the sink does not know". */
export function generateDemoCredentials(
  opts: { projectId?: string; keyId?: string; teamId?: string; bundleId?: string } = {},
): DemoCredentials {
  const projectId = opts.projectId ?? DEMO_FCM_PROJECT_ID;
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const serviceAccount = {
    type: 'service_account',
    project_id: projectId,
    private_key_id: `local-${Date.now().toString(36)}`,
    private_key: rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: `push-demo@${projectId}.iam.gserviceaccount.com`,
    client_id: '000000000000000000000',
    // the real exchange address; the FCM transport sends it to FCM_ENDPOINT/token instead
    // when FCM_ENDPOINT is set
    token_uri: 'https://oauth2.googleapis.com/token',
  };
  return {
    serviceAccountJson: JSON.stringify(serviceAccount),
    apns: {
      keyId: opts.keyId ?? DEMO_APNS.keyId,
      teamId: opts.teamId ?? DEMO_APNS.teamId,
      bundleId: opts.bundleId ?? DEMO_APNS.bundleId,
      p8KeyContent: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      useSandbox: true,
    },
  };
}

function writeOnce(file: string, creds: DemoCredentials) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, JSON.stringify(creds, null, 2), { mode: 0o600 });
  try {
    linkSync(tmp, file); // fails with EEXIST when another process won the race: use theirs
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
}
