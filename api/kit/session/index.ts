// Sessions of the settings pages (docs/settings.md, "Sessions"): the Redis store, the
// cookie, the CSRF check, the app-level middleware and the sign-in contract each API fills.
export { webSessionStore, WEB_SESSION_APIS, type WebSession, type WebSessionApi, type SessionSubject, type WebSessionStore } from './store';
export { cookieName, setSessionCookie, clearSessionCookie, readSessionCookie } from './cookie';
export { requireCsrf, requireSameOrigin, isUnsafeMethod, CSRF_HEADER } from './csrf';
export { webSessions, sessionFor } from './middleware';
export type { WebSignIn, SignInInput } from './sign-in';
