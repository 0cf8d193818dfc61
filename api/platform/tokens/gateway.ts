// The create path of a platform token (docs/platform.md, "Tokens, limits and tenants"): one
// transaction writes the token row, its expiry timer's workflow-start entry (when it has
// an expiry) and, under an Idempotency-Key, the token's id on that key. The answer does not
// wait for Temporal: the platform worker's start dispatcher starts
// `platform-token-expiry/<id>` from the outbox. A token and its timer exist together or
// not at all.
import { bindIdempotencyResource } from '../../../db/repositories/idempotency-keys';
import { findPlatformToken, revokePlatformTokens } from '../../../db/repositories/platform-tokens';
import { enqueueWorkflowStart } from '../../../db/repositories/workflow-starts';
import type { PlatformCaller } from '../../../domain/platform/access.rules';
import { createPlatformToken, type CreateTokenInput } from '../../../domain/platform/create-token';
import type { PlatformTokenRecord } from '../../../domain/platform/types';
import { platformTokenExpiryStart } from '../../../workflows/platform-token/contract';
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import type { IdempotencyState } from '../../kit/idempotency';

/**
 * Creates the caller's token. Under an Idempotency-Key whose earlier attempt committed a
 * token but died before its answer was stored (its lease lapsed, `idem.resourceId`), that
 * token's secret was never shown to anyone and cannot be shown now (only its hash is
 * kept): it is revoked in the same transaction that makes the one this answer carries, so
 * one key still yields exactly one usable token.
 */
export async function createToken(
  deps: AppDeps,
  caller: PlatformCaller,
  input: CreateTokenInput,
  idem?: IdempotencyState,
): Promise<{ token: PlatformTokenRecord; secret: string }> {
  try {
    return await deps.db.transaction(async (m) => {
      if (idem?.resourceId) {
        const orphan = await findPlatformToken(m, idem.resourceId);
        if (orphan && orphan.userId === caller.userId && orphan.organizationId === caller.organizationId) {
          await revokePlatformTokens(m, [orphan.id], input.now);
        }
      }
      const made = await createPlatformToken(m, caller, input);
      if (idem && !(await bindIdempotencyResource(m, idem.scope, idem.key, idem.token, made.token.id))) throw new LeaseLost();
      if (made.token.expiresAt) {
        await enqueueWorkflowStart(m, platformTokenExpiryStart({ tokenId: made.token.id, expiresAt: new Date(made.token.expiresAt).toISOString() }));
      }
      return made;
    });
  } catch (err) {
    if (err instanceof LeaseLost) {
      // the kit's words for a key another request holds (api/kit/idempotency.ts)
      throw errors.conflict('idempotency_request_in_progress', 'A request with this Idempotency-Key is still in progress');
    }
    throw err; // a refusal (DomainError) or a database that is down: the error middleware answers
  }
}

/** This request's lease on its Idempotency-Key lapsed and a retry took the key over. */
class LeaseLost extends Error {}
