// Record types the push code shares: the routes, the commands and the repositories.
import type { Platform } from '../../lib/push/platform';
import type { SegmentFilter } from './segment-filter.rules';

export type { Platform };

/** An app as the API needs it: never the sealed credentials themselves, only whether they are set. */
export interface PushAppRecord {
  id: string;
  companyId: string;
  name: string;
  bundleId: string;
  platform: Platform;
  hasFcmConfig: boolean;
  hasApnsConfig: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Drops revoked keys from every process's key cache (the HTTP layer's Redis markers). */
export type RevokeKeyMarkers = (keyIds: string[]) => Promise<void>;

/** The operators of an event trigger's conditions (trigger.rules.ts decides each). */
export const TRIGGER_OPERATORS = ['equals', 'not_equals', 'greater_than', 'less_than', 'contains', 'exists'] as const;
export type TriggerOperator = (typeof TRIGGER_OPERATORS)[number];

/** One condition over a fired property: `field` is `properties.<name>`. */
export interface TriggerCondition {
  field: string;
  operator: TriggerOperator;
  /** absent only for `exists` (which then means true) */
  value?: string | number | boolean | null;
}

/** An app's event trigger as stored. */
export interface EventTriggerRecord {
  id: string;
  appId: string;
  name: string;
  eventName: string;
  delayMinutes: number;
  conditions: TriggerCondition[];
  title: string;
  body: string;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** What became of a firing: pending until due, then sent/failed (its one push) or skipped_*. */
export type FiringStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'skipped_disabled' | 'skipped_deleted' | 'skipped_device';

/** What became of a due firing: its status after its batch's attempt. */
export type FiringOutcome = Exclude<FiringStatus, 'pending'>;

/** A trigger batch's firings counted by outcome (firings gone with their app are not counted). */
export type TriggerBatchCounts = Record<FiringOutcome, number>;

/** A campaign's states (campaign.rules.ts decides which command each admits). */
export const CAMPAIGN_STATUSES = ['Draft', 'Queued', 'Scheduled', 'Sending', 'Completed', 'Cancelled', 'Failed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_TARGETS = ['Segment', 'All'] as const;
export type CampaignTarget = (typeof CAMPAIGN_TARGETS)[number];

export interface CampaignRecord {
  id: string;
  appId: string;
  name: string;
  title: string;
  body: string;
  imageUrl: string | null;
  deepLink: string | null;
  customData: Record<string, unknown>;
  targetType: CampaignTarget;
  segmentId: string | null;
  status: CampaignStatus;
  scheduledAt: Date | null;
  sendId: string | null;
  recipients: number | null;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** What beginning a campaign's send found (domain/push/campaign-run.ts). */
export type BeginResult =
  | { kind: 'sending'; sendId: string; total: number }
  /** the campaign is gone (its app was deleted): nothing to send */
  | { kind: 'gone' }
  /** finished before sending (cancelled meanwhile, or failed: its segment is gone) */
  | { kind: 'finished'; status: CampaignStatus };

export interface FinishResult {
  /** the campaign's status now (null: the campaign is gone) */
  status: CampaignStatus | null;
  /** its devices pushed */
  sent: number;
}

/** An app API key as the API shows it (never its hash). */
export interface PushApiKeyRow {
  id: string;
  appId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A registered device (push_devices). */
export interface DeviceRow {
  id: string;
  appId: string;
  deviceToken: string;
  platform: Platform;
  userId: string | null;
  deviceMetadata: Record<string, unknown>;
  isActive: boolean;
  lastSeenAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** A named device filter of an app (push_segments); the filter in its checked, normal form. */
export interface SegmentRow {
  id: string;
  appId: string;
  name: string;
  description: string | null;
  filter: SegmentFilter;
  createdAt: Date;
  updatedAt: Date;
}
