import type { Context } from 'koa';
import { errors } from './errors';
import type { AppDeps } from '../deps';
import { findWorkspaceAccess } from '../../db/repositories/workspaces';
import { allowedUnless } from '../kit/visible-row';

export const SCOPES = [
  'tickets:read',
  'tickets:write',
  'players:read',
  'players:write',
  'analytics:read',
  'webhooks:manage',
  'admin:all',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Who is calling, set on `ctx.state.auth` by the authenticate middleware. */
export interface AuthContext {
  keyId: string;
  organizationId: string;
  plan: 'starter' | 'growth' | 'scale';
  /** The key's own workspace, or null when it may use every workspace of its organization. */
  workspaceId: string | null;
  /** `live` keys see live workspaces only, `test` keys sandbox workspaces only. */
  environment: 'live' | 'test';
  type: 'server' | 'sdk';
  scopes: string[];
  /** sdk keys act for exactly this player (the caller's own playerId). */
  playerId: string | null;
  via: 'token' | 'key';
  /** When the credential stops being valid (token expiry); null for keys. */
  expiresAt: number | null;
}

export function auth(ctx: Context): AuthContext {
  const a = ctx.state.auth as AuthContext | undefined;
  if (!a) throw errors.unauthorized();
  return a;
}

export function hasScope(a: AuthContext, scope: Scope): boolean {
  return a.scopes.includes('admin:all') || a.scopes.includes(scope);
}

/** 403 unless the caller's key carries `scope` (`admin:all` implies every scope). */
export function requireScope(ctx: Context, scope: Scope): AuthContext {
  const a = auth(ctx);
  if (!hasScope(a, scope)) throw errors.forbidden(`This API key lacks the '${scope}' scope`);
  return a;
}

export interface WorkspaceAccess {
  id: string;
  organizationId: string;
  environment: 'live' | 'sandbox';
}

// Workspaces never move between organizations or environments, so the access facts
// are safe to keep in memory; settings are read fresh where they are used.
const workspaceCache = new Map<string, WorkspaceAccess | null>();

async function loadWorkspace(deps: AppDeps, id: string): Promise<WorkspaceAccess | null> {
  if (workspaceCache.has(id)) return workspaceCache.get(id)!;
  const ws = await findWorkspaceAccess(deps.db, id);
  if (ws) workspaceCache.set(id, ws);
  return ws;
}

/**
 * 403 unless the key may act in `workspaceId`: same organization, matching environment
 * (sk_test_ ↔ sandbox, sk_live_ ↔ live) and, for workspace-bound keys, that workspace.
 * A workspace of another organization is indistinguishable from a missing one.
 */
export async function requireWorkspace(ctx: Context, deps: AppDeps, workspaceId: string): Promise<WorkspaceAccess> {
  const a = auth(ctx);
  const ws = await loadWorkspace(deps, workspaceId);
  const envMatches = ws && (ws.environment === 'sandbox') === (a.environment === 'test');
  if (!ws || ws.organizationId !== a.organizationId || !envMatches || (a.workspaceId && a.workspaceId !== ws.id)) {
    throw errors.forbidden(`This API key has no access to workspace '${workspaceId}'`);
  }
  return ws;
}

/**
 * For resources addressed by their own id (tickets, players, agents, webhook endpoints):
 * whether the caller may use the workspace the resource lives in, for `visibleRow`
 * (api/kit/visible-row.ts). Those routes answer 404 instead of 403 so an id from another
 * workspace or organization is indistinguishable from a missing one (no existence leak);
 * routes that name the workspace keep the spec's 403. Only the 403 is a "no": the
 * workspace lookup failing (PostgreSQL away) is thrown on and answered 503.
 */
export function canUseWorkspace(ctx: Context, deps: AppDeps, workspaceId: string): Promise<boolean> {
  return allowedUnless(403, () => requireWorkspace(ctx, deps, workspaceId));
}

/** The workspace a request acts in: explicit, or inferred from a workspace-bound key. */
export function workspaceIdOf(ctx: Context, explicit: string | undefined): string {
  const id = explicit ?? auth(ctx).workspaceId ?? undefined;
  if (!id) throw errors.validation('workspaceId: Required');
  return id;
}
