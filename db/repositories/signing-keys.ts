// signing_keys: the RS256 keys that sign access tokens, when JWT_PRIVATE_KEY is not set.
import { SigningKey } from '../entities';
import { managerOf, type Executor } from '../db';

/** Oldest first: the newest generated key signs, all of them verify. */
export async function listSigningKeys(executor: Executor): Promise<SigningKey[]> {
  return managerOf(executor).find(SigningKey, { order: { createdAt: 'ASC', kid: 'ASC' } });
}

/** Stores a generated key unless one with that kid exists (two processes starting at once). */
export async function insertSigningKeyIfAbsent(
  executor: Executor,
  k: Pick<SigningKey, 'kid' | 'privateJwk' | 'publicJwk'>,
): Promise<void> {
  await managerOf(executor).createQueryBuilder().insert().into(SigningKey).values(k).orIgnore().execute();
}
