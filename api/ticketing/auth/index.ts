// API keys, access tokens, authentication, revocation and rate limits of the ticketing
// API (spec "Authentication"); docs/auth.md explains the design.
export { publicAuthRouter, apiKeysRouter } from './routes';
export { authenticate } from './authenticate';
export { rateLimit, PLAN_LIMITS } from './rate-limit';
export { authCacheStats, resetAuthCacheStats, type AuthCacheStats } from './cache-stats';
