// The session cookie (docs/settings.md, "Sessions"): HttpOnly (no script reads it),
// SameSite=Strict (no other site's page sends it), Path=/, and Secure with the `__Host-`
// prefix unless configured off (development over plain http). Written and read by hand:
// Koa's cookie jar refuses a Secure cookie behind a TLS-terminating proxy it does not trust.
import type { Context } from 'koa';
import type { Config } from '../../../lib/config';

type Options = Pick<Config['webSessions'], 'secureCookie'>;

export const cookieName = (o: Options) => (o.secureCookie ? '__Host-settings_session' : 'settings_session');

function attributes(o: Options, maxAgeSeconds: number): string {
  return `Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${o.secureCookie ? '; Secure' : ''}`;
}

/** Sets the cookie for `maxAgeSeconds` (the session's absolute remainder). */
export function setSessionCookie(ctx: Context, o: Options, value: string, maxAgeSeconds: number): void {
  ctx.append('Set-Cookie', `${cookieName(o)}=${value}; ${attributes(o, Math.max(0, Math.floor(maxAgeSeconds)))}`);
}

export function clearSessionCookie(ctx: Context, o: Options): void {
  ctx.append('Set-Cookie', `${cookieName(o)}=; ${attributes(o, 0)}`);
}

/** The cookie's value in the request, or null. */
export function readSessionCookie(ctx: Context, o: Options): string | null {
  const name = cookieName(o);
  for (const part of ctx.get('Cookie').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}
