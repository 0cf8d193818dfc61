// Accounts and authentication of the push API (/api/v1): the interface the other push
// routes build on (push.md §1) — pushAuth sets ctx.state.principal, appFor checks that
// the principal may use an app. docs/push.md explains the design.
export { pushAuth, appFor, appRowFor, principalOf, requireUser } from './middleware';
export type { PushPrincipal, PushScheme, PushAuthOptions } from './middleware';
export type { PushAppRecord } from '../../../domain/push/types';
export { pushLimits, PUSH_LIMIT_DEFAULTS, type PushLimitGroup } from './limits';
export { pushApiKeys, pushKeyCacheStats } from './api-key-cache';
