import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import type { WebhookApiName } from '../../domain/webhooks/api-names';

/**
 * The outbox of domain events, written in the same transaction as the change that caused
 * them (db/repositories/events.ts). An AFTER INSERT trigger (migration WebhookDispatch,
 * not expressible in TypeORM) NOTIFYs `events_outbox`, which wakes the webhook dispatcher.
 */
@Entity({ name: 'events' })
@Unique('events_dedupe_key_key', ['dedupeKey'])
@Index('events_ws', ['workspaceId', 'occurredAt'])
@Index('events_subject', ['subjectId'])
// partial indexes of the dispatcher's claim; TypeORM keeps `where` only when it creates them
@Index('events_undispatched', ['occurredAt', 'id'], { where: 'dispatched_at IS NULL' })
@Index('events_undispatched_batch', ['batchId'], { where: 'dispatched_at IS NULL' })
// the retention purge finds events dispatched more than 7 days ago (workflows/maintenance)
@Index('events_dispatched', ['dispatchedAt'], { where: 'dispatched_at IS NOT NULL' })
export class Event {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'events_pkey' })
  id!: string;

  @Column({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ name: 'subject_id', type: 'text', nullable: true })
  subjectId!: string | null;

  @Column({ type: 'jsonb' })
  data!: unknown;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  /** from the workflow step or the entity: a retried write records its event once */
  @Column({ name: 'dedupe_key', type: 'text' })
  dedupeKey!: string;

  /** the dispatcher committed the event's delivery rows */
  @Column({ name: 'claimed_at', type: 'timestamptz', nullable: true })
  claimedAt!: Date | null;

  /** their batch workflow is started (or there were none) */
  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt!: Date | null;

  /** the webhook API it is for: it goes to that API's endpoints only (domain/webhooks/claim-events.ts) */
  @Column({ type: 'text', default: 'ticketing' })
  api!: WebhookApiName;

  /** a platform event's environment (its ticket's): it goes to that environment's endpoints only; null for the ticketing API's */
  @Column({ type: 'text', nullable: true })
  environment!: 'live' | 'test' | null;

  /** the claim that took it: one `webhook-batch/<batch id>` workflow per claim */
  @Column({ name: 'batch_id', type: 'text', nullable: true })
  batchId!: string | null;
}
