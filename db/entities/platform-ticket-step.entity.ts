import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { PlatformTicket } from './platform-ticket.entity';

/** One numbered step of a platform ticket and the change that made it (docs/platform.md, "Step keys"). */
@Entity({ name: 'platform_ticket_steps' })
@Unique('platform_ticket_steps_ticket_id_step_key_key', ['ticketId', 'stepKey'])
export class PlatformTicketStepEntry {
  @PrimaryColumn({ name: 'ticket_id', type: 'text', primaryKeyConstraintName: 'platform_ticket_steps_pkey' })
  ticketId!: string;

  /** the step's number: the ticket's version after it */
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'platform_ticket_steps_pkey' })
  version!: number;

  @ManyToOne(() => PlatformTicket, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'ticket_id', foreignKeyConstraintName: 'platform_ticket_steps_ticket_id_fkey' })
  ticket?: Relation<PlatformTicket>;

  /** `update:<Update id>` or `automation:<rule id>:<origin>`: unique per ticket */
  @Column({ name: 'step_key', type: 'text' })
  stepKey!: string;
}
