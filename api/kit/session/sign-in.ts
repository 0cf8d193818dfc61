// What each API hands the settings pages' sign-in (docs/settings.md, "Sessions"): its own
// credential check, written next to its authentication (api/<api>/auth/web-sign-in.ts)
// and injected by api/app.ts, so api/web, which serves /settings/session, imports no API.
import type { Context } from 'koa';
import type { SessionSubject, WebSession, WebSessionApi } from './store';

/** The sign-in body after validation: a credential (ticketing, platform) or email and password (push). */
export type SignInInput = { credential: string } | { email: string; password: string };

export interface WebSignIn {
  api: WebSessionApi;
  /**
   * Who the input signs in. Throws the kit's AppError: 401 for a wrong credential (the
   * caller counts it against the client address), 403 for a valid one that may not
   * manage settings, 429/503 as the API's own checks answer.
   */
  signIn(input: SignInInput, ctx: Context): Promise<SessionSubject>;
  /** Whether the session's credential is still usable (revoked, expired, deleted: false). */
  isCurrent(session: WebSession): Promise<boolean>;
}
