// Signing in to the settings pages with a ticketing credential (docs/settings.md,
// "Sessions"): an `sk_live_`/`sk_test_` key or an access token of one, resolved exactly
// as a bearer value (authServices.resolve). Settings are managed with `admin:all` only.
// An access token signs in as its key, and the session ends no later than the token.
import type { AppDeps } from '../../deps';
import { errors } from '../errors';
import type { WebSignIn } from '../../kit/session';
import { authServices } from './credentials';
import { revokedMarker } from './rate-limit';

export function ticketingWebSignIn(deps: AppDeps): WebSignIn {
  const services = authServices(deps);
  return {
    api: 'ticketing',
    async signIn(input) {
      if (!('credential' in input)) throw errors.validation('credential: Required', { credential: ['Required'] });
      const { row, expiresAt } = await services.resolve(input.credential);
      if (row.type !== 'server' || !row.scopes.includes('admin:all')) {
        throw errors.forbidden("Settings are managed with a key that has the 'admin:all' scope");
      }
      return {
        api: 'ticketing',
        credentialId: row.id,
        label: `${row.name} (${row.prefix}…)`,
        organizationId: row.organizationId,
        workspaceId: row.workspaceId,
        environment: row.environment,
        notAfter: expiresAt,
      };
    },
    async isCurrent(session) {
      const current = await services.resolveKeyId(session.credentialId).then(
        () => true,
        (err) => {
          if ((err as { status?: number }).status === 401) return false;
          throw err;
        },
      );
      // revoked in another process: the marker the gate checks on every request
      return current && !(await deps.redis.exists(revokedMarker(session.credentialId)));
    },
  };
}
