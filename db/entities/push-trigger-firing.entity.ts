import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PushApp } from './push-app.entity';
import { PushEventTrigger } from './push-event-trigger.entity';
import { PushSend } from './push-send.entity';

/**
 * One matched trigger of one fire: the text rendered at fire time, when it is due, and
 * what became of it. The firing dispatcher puts it in a batch, `trigger-batch/<batchId>`
 * (docs/push.md, "Event triggers"). It outlives its trigger
 * (trigger_id null: skipped_deleted when due), not its app.
 */
@Entity({ name: 'push_trigger_firings' })
@Check(
  'push_trigger_firings_status_check',
  `status IN ('pending','sending','sent','failed','skipped_disabled','skipped_deleted','skipped_device')`,
)
@Index('push_trigger_firings_fire', ['fireId'])
@Index('push_trigger_firings_trigger', ['triggerId'])
@Index('push_trigger_firings_app', ['appId', 'createdAt'])
// partial index of the dispatcher's claim; TypeORM keeps `where` only when it creates it
@Index('push_trigger_firings_undispatched', ['sendAt', 'id'], { where: 'dispatched_at IS NULL' })
@Index('push_trigger_firings_batch', ['batchId'])
export class PushTriggerFiring {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_trigger_firings_pkey' })
  id!: string;

  /** the fire request it came from (an Idempotency-Key binds to it) */
  @Column({ name: 'fire_id', type: 'uuid' })
  fireId!: string;

  @Column({ name: 'app_id', type: 'uuid' })
  appId!: string;

  @ManyToOne(() => PushApp, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id', foreignKeyConstraintName: 'push_trigger_firings_app_id_fkey' })
  app?: Relation<PushApp>;

  @Column({ name: 'trigger_id', type: 'uuid', nullable: true })
  triggerId!: string | null;

  @ManyToOne(() => PushEventTrigger, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'trigger_id', foreignKeyConstraintName: 'push_trigger_firings_trigger_id_fkey' })
  trigger?: Relation<PushEventTrigger> | null;

  /** no foreign key: a device deleted during the delay is a skipped_device outcome, not a lost row */
  @Column({ name: 'device_id', type: 'uuid' })
  deviceId!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ name: 'send_at', type: 'timestamptz' })
  sendAt!: Date;

  @Column({ type: 'text', default: 'pending' })
  status!: string;

  @Column({ name: 'send_id', type: 'uuid', nullable: true })
  sendId!: string | null;

  @ManyToOne(() => PushSend, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'send_id', foreignKeyConstraintName: 'push_trigger_firings_send_id_fkey' })
  send?: Relation<PushSend> | null;

  /** the batch the dispatcher put it in; its notification's id is the firing's id */
  @Column({ name: 'batch_id', type: 'uuid', nullable: true })
  batchId!: string | null;

  @Column({ name: 'claimed_at', type: 'timestamptz', nullable: true })
  claimedAt!: Date | null;

  /** its batch's workflow is started */
  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}
