// Signing in to the operator page with a push account (docs/settings.md, "Sessions";
// docs/trial-onboarding.md, "The pages"): the check of POST /auth/login (its per-IP limit,
// the password hash, one answer for an unknown email and a wrong password), without the
// tokens login issues: the session stands for the user instead.
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { isUuid } from '../../kit/uuid';
import { gate } from '../../kit/rate-limit';
import type { WebSignIn } from '../../kit/session';
import { findPushUserById } from '../../../db/repositories/push-users';
import { checkPushPassword } from '../../../domain/auth/log-in-push-user';
import { pushLimits } from './limits';

export function pushWebSignIn(deps: AppDeps): WebSignIn {
  const limits = pushLimits(deps);
  return {
    api: 'push',
    async signIn(input, ctx) {
      if (!('email' in input)) throw errors.validation('email and password: Required', { email: ['Required'], password: ['Required'] });
      const slot = await gate(deps.redis, limits.bucket('push-auth-ip', ctx.ip));
      if (!slot.allowed) throw errors.rateLimited(slot.resetSeconds);
      const user = await checkPushPassword(deps.db, input.email, input.password);
      if (!user) throw errors.unauthorized('Invalid email or password');
      if (!user.companyId) throw errors.unauthorized('This account has no company');
      return { api: 'push', credentialId: user.id, label: user.email, organizationId: user.companyId, workspaceId: null, environment: null };
    },
    async isCurrent(session) {
      const user = isUuid(session.credentialId) ? await findPushUserById(deps.db, session.credentialId) : null;
      return Boolean(user?.companyId);
    },
  };
}
