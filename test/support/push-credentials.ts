// Credentials for the push tests, made fresh with node:crypto: a service-account JSON
// with a real RSA key, an APNs .p8 (EC P-256) and wrong keys of other kinds.
import { generateKeyPairSync } from 'node:crypto';

const pem = (k: { export(o: object): string | Buffer }) => String(k.export({ format: 'pem', type: 'pkcs8' }));

export const rsaPem = () => pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
export const p256Pem = () => pem(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey);
export const p384Pem = () => pem(generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey);

export function serviceAccount(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'service_account',
    project_id: 'space-miners',
    private_key_id: 'abc123',
    private_key: rsaPem(),
    client_email: 'push@space-miners.iam.gserviceaccount.com',
    client_id: '1234567890',
    token_uri: 'https://oauth2.googleapis.com/token',
    ...overrides,
  };
}

export function apnsConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { keyId: 'ABC123DEFG', teamId: 'TEAM123456', bundleId: 'com.studio.miners', p8KeyContent: p256Pem(), useSandbox: true, ...overrides };
}
