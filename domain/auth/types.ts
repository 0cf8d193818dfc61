// Record types of the credential commands (domain/auth/): a ticketing API key and the key
// that asks for a new one, a push user and its session as the commands leave it.
import type { Plan } from '../../db/entities/organization.entity';

/** One api_keys row with its organization's plan (the rate limit needs it on every request). */
export interface KeyRow {
  id: string;
  organizationId: string;
  workspaceId: string | null;
  name: string;
  type: 'server' | 'sdk';
  environment: 'live' | 'test';
  prefix: string;
  scopes: string[];
  playerId: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  plan: Plan;
}

/** A user with the company it acts for (its first membership: a company of one today). */
export interface PushUserRow {
  id: string;
  email: string;
  name: string;
  /** null: an approved trial owner who has not set a password yet */
  passwordHash: string | null;
  isSuperAdmin: boolean;
  createdAt: Date;
  companyId: string | null;
}

/** The API key that creates another: its organization, workspace binding and environment. */
export interface KeyCreator {
  keyId: string;
  organizationId: string;
  /** bound to one workspace, or null for every workspace of the organization */
  workspaceId: string | null;
  environment: 'live' | 'test';
}

export interface NewApiKey {
  name: string;
  type: 'server' | 'sdk';
  scopes: string[];
  /** default: the workspace's environment when workspaceId is given, else the creator's */
  environment?: 'live' | 'test';
  /** default: the creator's own workspace */
  workspaceId?: string;
  /** sdk keys only (the schema requires it for them) */
  playerId?: string;
}

/** A push session as a command leaves it: the user and the refresh token just stored for it. */
export interface PushSession {
  user: PushUserRow;
  refreshToken: string;
}

/** A push refresh token's row (never the token; only its hash is stored). */
export interface RefreshTokenRow {
  id: string;
  userId: string;
  familyId: string;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
}
