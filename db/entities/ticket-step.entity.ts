import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { Ticket } from './ticket.entity';

/**
 * The ticket workflow's step log: the key of the change each stored lifecycle step was
 * (domain/tickets/apply-change.ts, docs/tickets.md "Step keys"); deleted with its ticket.
 */
@Entity({ name: 'ticket_steps' })
@Unique('ticket_steps_ticket_id_step_key_key', ['ticketId', 'stepKey'])
export class TicketStep {
  @PrimaryColumn({ name: 'ticket_id', type: 'text', primaryKeyConstraintName: 'ticket_steps_pkey' })
  ticketId!: string;

  @ManyToOne(() => Ticket, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'ticket_id', foreignKeyConstraintName: 'ticket_steps_ticket_id_fkey' })
  ticket?: Relation<Ticket>;

  /** the step number (`tickets.version` once the step is stored) */
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'ticket_steps_pkey' })
  version!: number;

  /** `update:<Update id>` or a step the workflow makes itself, e.g. `deadline:auto_close:<ISO time>` */
  @Column({ name: 'step_key', type: 'text' })
  stepKey!: string;
}
