// The answer of register, login and refresh: the access token signed here (tokens.ts)
// for the session a domain command left (domain/auth/: the user and its new refresh token).
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { appSigningKeys } from '../../kit/auth/signing-keys';
import type { PushUserRow } from '../../../domain/auth/types';
import type { PushSession } from '../../../domain/auth/types';
import { issueAccessToken } from './tokens';
import { iso } from '../../kit/dates';

export interface AuthResultBody {
  accessToken: string;
  refreshToken: string;
  expiresAt: string;
  user: { id: string; email: string; name: string; createdAt: string };
}

export const presentUser = (u: PushUserRow) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  createdAt: iso(u.createdAt),
});

/** 401 for an account without a company (it could not act on anything). */
export async function authResult(deps: AppDeps, { user, refreshToken }: PushSession): Promise<AuthResultBody> {
  if (!user.companyId) throw errors.unauthorized('This account has no company');
  const { accessToken, expiresAt } = await issueAccessToken(appSigningKeys(deps), {
    userId: user.id,
    companyId: user.companyId,
    isSuperAdmin: user.isSuperAdmin,
  });
  return { accessToken, refreshToken, expiresAt: iso(expiresAt), user: presentUser(user) };
}
