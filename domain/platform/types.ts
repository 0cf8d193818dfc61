// Record types of the platform API (docs/platform.md), shared by its commands, its
// workflows, its repositories and api/platform. Apart from /v1's (domain/tickets,
// domain/workspaces): its own priorities, statuses, roles and ids.

/** Live data and sandbox data never meet: a token reads and writes its environment's tickets only. */
export type PlatformEnvironment = 'live' | 'test';
export const PLATFORM_ENVIRONMENTS: PlatformEnvironment[] = ['live', 'test'];

/** Organisation-wide; an organisation admin is an `admin` with `isOrgAdmin`. */
export type PlatformRole = 'agent' | 'manager' | 'admin';
export const PLATFORM_ROLES: PlatformRole[] = ['agent', 'manager', 'admin'];

export type PlatformUserStatus = 'invited' | 'active' | 'deactivated' | 'erased';

export type PlatformTicketPriority = 'critical' | 'high' | 'normal' | 'low';
export const PLATFORM_TICKET_PRIORITIES: PlatformTicketPriority[] = ['critical', 'high', 'normal', 'low'];

export type PlatformTicketStatus = 'open' | 'pending' | 'resolved' | 'closed';
export const PLATFORM_TICKET_STATUSES: PlatformTicketStatus[] = ['open', 'pending', 'resolved', 'closed'];

export type PlatformChannelType = 'email' | 'web' | 'chat' | 'in_game' | 'api';

export interface PlatformPlan {
  name: string;
  seats: number;
  limits: { reads_per_minute: number; writes_per_minute: number; max_page_size: number };
}

export interface PlatformOrganizationRecord {
  id: string;
  name: string;
  /** per-token overrides a minute (npm run admin -- set-limits); null: the spec's 120 and 60 */
  readLimit: number | null;
  writeLimit: number | null;
  createdAt: Date;
}

/** One priority's SLA policy (docs/platform.md, "Workspaces"). */
export interface PlatformSlaPolicy {
  priority: PlatformTicketPriority;
  /** minutes from a ticket's creation to its first agent reply */
  firstResponseMinutes: number;
  /** minutes from a ticket's creation to its resolution */
  resolutionMinutes: number;
}

export interface PlatformWorkspaceRecord {
  id: string;
  organizationId: string;
  name: string;
  timezone: string;
  defaultLanguage: string;
  plan: PlatformPlan;
  /** the stored SLA policies, one per priority; null: the documented defaults (sla-defaults.rules.ts) */
  slaPolicies: PlatformSlaPolicy[] | null;
  status: 'active' | 'pending_deletion';
  deletionRequestedAt: Date | null;
  purgeAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface PlatformChannelRecord {
  id: string;
  workspaceId: string;
  type: PlatformChannelType;
  name: string;
  createdAt: Date;
}

export interface PlatformUserRecord {
  id: string;
  organizationId: string;
  /** null once erased */
  email: string | null;
  name: string | null;
  role: PlatformRole;
  isOrgAdmin: boolean;
  status: PlatformUserStatus;
  createdAt: Date;
  updatedAt: Date;
  lastActiveAt: Date | null;
  activatedAt: Date | null;
  deactivatedAt: Date | null;
  erasedAt: Date | null;
}

export interface PlatformTokenRecord {
  id: string;
  organizationId: string;
  workspaceId: string;
  userId: string;
  name: string;
  environment: PlatformEnvironment;
  /** the secret's leading characters, shown in lists */
  prefix: string;
  expiresAt: Date | null;
  expiredAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

/** What authenticating a token needs, read in one query (db/repositories/platform-tokens.ts). */
export interface PlatformTokenPrincipalRow {
  id: string;
  organizationId: string;
  workspaceId: string;
  userId: string;
  name: string;
  environment: PlatformEnvironment;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** the creator's role now: a token inherits it */
  role: PlatformRole;
  isOrgAdmin: boolean;
  userStatus: PlatformUserStatus;
  workspaceStatus: 'active' | 'pending_deletion';
  readLimit: number | null;
  writeLimit: number | null;
}

export interface PlatformTicketRecord {
  id: string;
  organizationId: string;
  workspaceId: string;
  environment: PlatformEnvironment;
  channelId: string;
  subject: string;
  body: string;
  contactEmail: string;
  priority: PlatformTicketPriority;
  status: PlatformTicketStatus;
  assigneeId: string | null;
  tags: string[];
  createdBy: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  resolvedAt: Date | null;
  closedAt: Date | null;
  deletedAt: Date | null;
  purgeAt: Date | null;
}

export interface PlatformReplyRecord {
  id: string;
  ticketId: string;
  authorId: string | null;
  body: string;
  createdAt: Date;
}
