// A platform token's secret: `service_live_` or `service_test_` and 32 random bytes. Only a
// SHA-256 of it is stored (as lib/api-keys.ts: 256 random bits leave nothing to guess, and an
// indexed equality lookup finds it); the list shows its first characters.
import { hashApiKey } from '../../lib/api-keys';
import { newSecret } from '../../lib/ids';
import type { PlatformEnvironment } from './types';

export const TOKEN_PREFIXES: Record<PlatformEnvironment, string> = { live: 'service_live_', test: 'service_test_' };

export function generatePlatformToken(environment: PlatformEnvironment): { secret: string; prefix: string; hash: string } {
  const kind = TOKEN_PREFIXES[environment];
  const secret = `${kind}${newSecret(32)}`;
  return { secret, prefix: secret.slice(0, kind.length + 6), hash: hashApiKey(secret) };
}

/** Whether a presented credential has a platform token's shape (anything else is refused before a lookup). */
export const looksLikePlatformToken = (value: string): boolean => /^service_(live|test)_[A-Za-z0-9_-]{43}$/.test(value);

export const hashPlatformToken = hashApiKey;
