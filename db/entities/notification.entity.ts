import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An email sent about a ticket, keyed by workflow id + step so it is sent at most once. */
@Entity({ name: 'notifications' })
@Index('notifications_ticket', ['ticketId']) // player erasure rewrites recipients by ticket
export class Notification {
  @PrimaryColumn({ name: 'idempotency_key', type: 'text', primaryKeyConstraintName: 'notifications_pkey' })
  idempotencyKey!: string;

  @Column({ name: 'ticket_id', type: 'text' })
  ticketId!: string;

  @Column({ type: 'text' })
  channel!: string;

  @Column({ type: 'text' })
  recipient!: string;

  @Column({ name: 'provider_message_id', type: 'text', nullable: true })
  providerMessageId!: string | null;

  @Column({ name: 'sent_at', type: 'timestamptz', default: () => 'now()' })
  sentAt!: Date;
}
