// Signing in to the settings pages with a platform token (docs/settings.md, "Sessions"):
// the token is resolved as a bearer token is (the token cache, then `usable` at the
// clock's instant); settings are managed by tokens whose creator is an admin of the
// workspace or an organisation admin. The session ends no later than the token.
import { nowOf, type AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import type { WebSignIn } from '../../kit/session';
import { usable } from './middleware';
import { platformTokenRevokedMarker, platformTokens } from './token-cache';

export function platformWebSignIn(deps: AppDeps): WebSignIn {
  const tokens = platformTokens(deps);
  return {
    api: 'platform',
    async signIn(input) {
      if (!('credential' in input)) throw errors.validation('credential: Required', { credential: ['Required'] });
      const row = await tokens.resolve(input.credential);
      if (!row || !usable(row, nowOf(deps))) throw errors.unauthorized('Invalid, expired or revoked token');
      if (row.role !== 'admin' && !row.isOrgAdmin) throw errors.forbidden('Settings are managed with a token created by an admin');
      return {
        api: 'platform',
        credentialId: row.id,
        label: row.name,
        organizationId: row.organizationId,
        workspaceId: row.workspaceId,
        environment: row.environment,
        notAfter: row.expiresAt ? new Date(row.expiresAt).getTime() : null,
      };
    },
    async isCurrent(session) {
      const row = await tokens.resolveId(session.credentialId);
      if (!row || !usable(row, nowOf(deps))) return false;
      // revoked in another process: the marker the gate checks on every request
      return !(await deps.redis.exists(platformTokenRevokedMarker(row.id)));
    },
  };
}
