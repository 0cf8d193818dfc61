import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { WebhookEndpoint } from './webhook-endpoint.entity';

/** One event to one endpoint: the envelope as sent, the same bytes on every attempt. */
@Entity({ name: 'webhook_deliveries' })
@Check('webhook_deliveries_status_check', `status IN ('pending','succeeded','failed','skipped')`)
@Unique('webhook_deliveries_event_id_endpoint_id_key', ['eventId', 'endpointId'])
@Index('webhook_deliveries_endpoint', { synchronize: false }) // (endpoint_id, created_at DESC)
@Index('webhook_deliveries_created', ['createdAt']) // the 7-day purge
export class WebhookDelivery {
  /** evt_: the envelope id */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'webhook_deliveries_pkey' })
  id!: string;

  @Column({ name: 'endpoint_id', type: 'text' })
  endpointId!: string;

  @ManyToOne(() => WebhookEndpoint, { nullable: false })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'webhook_deliveries_endpoint_id_fkey' })
  endpoint?: Relation<WebhookEndpoint>;

  @Column({ name: 'event_id', type: 'text' })
  eventId!: string;

  @Column({ name: 'event_type', type: 'text' })
  eventType!: string;

  @Column({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'text', default: 'pending' })
  status!: 'pending' | 'succeeded' | 'failed' | 'skipped';

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  /** sent by the test sender, not caused by a real event */
  @Column({ type: 'boolean', default: false })
  synthetic!: boolean;
}
