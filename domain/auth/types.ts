// Record types of the credential commands (domain/auth/): the key that asks for a new
// ticketing API key, and a push account's session as the commands leave it.
import type { PushUserRow } from '../../db/repositories/push-users';

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
