import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Ticket } from './ticket.entity';

/**
 * The create path's outbox: a ticket whose workflow is not started yet. Written in the
 * transaction that inserts the ticket row; the ticketing worker's start dispatcher
 * (workers/ticket-start-dispatcher.ts) starts `ticket/<id>` and deletes the entry. An AFTER
 * INSERT trigger (migration CreateOutbox) NOTIFYs `ticket_starts`.
 */
@Entity({ name: 'ticket_workflow_starts' })
@Index('ticket_workflow_starts_created', ['createdAt'])
export class TicketWorkflowStart {
  @PrimaryColumn({ name: 'ticket_id', type: 'text', primaryKeyConstraintName: 'ticket_workflow_starts_pkey' })
  ticketId!: string;

  @ManyToOne(() => Ticket, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'ticket_id', foreignKeyConstraintName: 'ticket_workflow_starts_ticket_id_fkey' })
  ticket?: Relation<Ticket>;

  /** the workflow's CreateTicketInput */
  @Column({ type: 'jsonb' })
  input!: unknown;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  /** a dispatcher took it; taken up again if it is still here a while later */
  @Column({ name: 'claimed_at', type: 'timestamptz', nullable: true })
  claimedAt!: Date | null;
}
