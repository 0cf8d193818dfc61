// signing_keys: the RS256 keys that sign access tokens, when JWT_PRIVATE_KEY is not set;
// the private halves only sealed in the secret box (api/kit/auth/signing-keys.ts).
import { In } from 'typeorm';
import { SigningKey } from '../entities';
import { managerOf, type Executor } from '../db';

/** Oldest first: the newest generated key signs, the retired ones verify during their grace. */
export async function listSigningKeys(executor: Executor): Promise<SigningKey[]> {
  return managerOf(executor).find(SigningKey, { order: { createdAt: 'ASC', kid: 'ASC' } });
}

/** Stores a generated key unless one with that kid exists (two processes starting at once). */
export async function insertSigningKeyIfAbsent(
  executor: Executor,
  k: Pick<SigningKey, 'kid' | 'privateKeyBox' | 'publicJwk'>,
): Promise<void> {
  await managerOf(executor).createQueryBuilder().insert().into(SigningKey).values(k).orIgnore().execute();
}

/** Drops keys whose grace after their rotation has ended (a rotation does it). */
export async function deleteSigningKeys(executor: Executor, kids: string[]): Promise<void> {
  if (kids.length) await managerOf(executor).delete(SigningKey, { kid: In(kids) });
}
