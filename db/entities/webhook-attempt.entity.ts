import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { WebhookDelivery } from './webhook-delivery.entity';

/** One POST of a delivery: the delivery log shows every attempt. */
@Entity({ name: 'webhook_attempts' })
export class WebhookAttempt {
  @PrimaryColumn({ name: 'delivery_id', type: 'text', primaryKeyConstraintName: 'webhook_attempts_pkey' })
  deliveryId!: string;

  @ManyToOne(() => WebhookDelivery, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'webhook_attempts_delivery_id_fkey' })
  delivery?: Relation<WebhookDelivery>;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'webhook_attempts_pkey' })
  attempt!: number;

  /** workflow time the retry schedule set for it */
  @Column({ name: 'scheduled_at', type: 'timestamptz' })
  scheduledAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ name: 'latency_ms', type: 'integer', nullable: true })
  latencyMs!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;
}
