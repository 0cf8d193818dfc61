// The platform token expiry timer's activity (workflows/platform-token/contract.ts).
import type { Db } from '../../db/db';
import { markPlatformTokenExpired } from '../../db/repositories/platform-tokens';
import type { PlatformTokenActivities } from '../../workflows/platform-token/contract';
import { withDomainFailures } from '../failures';

export function createPlatformTokenActivities({ db }: { db: Db }): PlatformTokenActivities {
  return withDomainFailures<PlatformTokenActivities>({
    markPlatformTokenExpired: (tokenId, at) => markPlatformTokenExpired(db, tokenId, new Date(at)),
  });
}
