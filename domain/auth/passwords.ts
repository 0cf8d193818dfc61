// Passwords: argon2id (@node-rs/argon2, its defaults: m=19 MiB, t=2, p=1, OWASP's
// minimum). Login with an unknown email verifies against a fixed hash of the same
// parameters, so both failures take the same code path and about the same time.
import { Algorithm, hash, verify } from '@node-rs/argon2';

const OPTIONS = { algorithm: Algorithm.Argon2id } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | undefined;

/** `stored` null (no such account): a verify against a dummy hash, then false. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  const target = stored ?? (await (dummy ??= hashPassword('no account has this password')));
  let ok = false;
  try {
    ok = await verify(target, password);
  } catch {
    ok = false;
  }
  return ok && stored !== null;
}
