// Issues a platform token for a user in a workspace, inside the caller's transaction: the
// row with only its hash; the secret is returned once. Its expiry timer (when it has one)
// is the caller's (the token's workflow, started from the outbox in the same transaction).
import type { Executor } from '../../db/db';
import { insertPlatformToken } from '../../db/repositories/platform-tokens';
import { newId } from '../../lib/ids';
import { generatePlatformToken } from './token-secret';
import type { PlatformEnvironment, PlatformTokenRecord } from './types';
import { daysAfter, type TokenExpiryDays } from './windows.rules';

export interface IssueTokenInput {
  organizationId: string;
  workspaceId: string;
  userId: string;
  name: string;
  environment: PlatformEnvironment;
  /** 30, 60 or 90; none: the token never expires */
  expiresInDays?: TokenExpiryDays | null;
  now: Date;
}

export async function issuePlatformToken(executor: Executor, input: IssueTokenInput): Promise<{ token: PlatformTokenRecord; secret: string }> {
  const { secret, prefix, hash } = generatePlatformToken(input.environment);
  const token = await insertPlatformToken(executor, {
    id: newId('tok', input.now.getTime()),
    organizationId: input.organizationId,
    workspaceId: input.workspaceId,
    userId: input.userId,
    name: input.name,
    environment: input.environment,
    prefix,
    hash,
    expiresAt: input.expiresInDays ? daysAfter(input.now, input.expiresInDays) : null,
    createdAt: input.now,
  });
  return { token, secret };
}
