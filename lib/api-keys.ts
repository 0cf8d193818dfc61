import { createHash } from 'node:crypto';
import { newSecret } from './ids';

export type KeyKind = 'sk_live_' | 'sk_test_' | 'sdk_';

/**
 * API keys are 32 random bytes, so a single SHA-256 is enough to store them safely
 * (no dictionary to attack) and lets the authenticate middleware find a key by an
 * indexed equality lookup instead of a slow per-row argon2 compare.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateApiKey(kind: KeyKind): { key: string; prefix: string; hash: string } {
  const key = `${kind}${newSecret(32)}`;
  return { key, prefix: key.slice(0, kind.length + 6), hash: hashApiKey(key) };
}

export function keyKindOf(key: string): KeyKind | null {
  for (const kind of ['sk_live_', 'sk_test_', 'sdk_'] as const) if (key.startsWith(kind)) return kind;
  return null;
}
