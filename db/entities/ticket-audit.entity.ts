import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Ticket } from './ticket.entity';

/** One row per lifecycle change of a ticket (who, what, note); deleted with its ticket. */
@Entity({ name: 'ticket_audit' })
@Index('ticket_audit_ticket', ['ticketId', 'id'])
export class TicketAudit {
  /** bigserial; bigint arrives as a string */
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'ticket_audit_pkey' })
  id!: string;

  @Column({ name: 'ticket_id', type: 'text' })
  ticketId!: string;

  @ManyToOne(() => Ticket, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'ticket_id', foreignKeyConstraintName: 'ticket_audit_ticket_id_fkey' })
  ticket?: Relation<Ticket>;

  @Column({ type: 'text' })
  action!: string;

  @Column({ type: 'text', nullable: true })
  actor!: string | null;

  @Column({ type: 'text', nullable: true })
  note!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  data!: unknown;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
