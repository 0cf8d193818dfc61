import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Ticket } from './ticket.entity';

/** A reply on a ticket, from the player or an agent; deleted with its ticket. */
@Entity({ name: 'messages' })
@Check('messages_author_type_check', `author_type IN ('player','agent')`)
@Index('messages_ticket', ['ticketId', 'createdAt'])
export class Message {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'messages_pkey' })
  id!: string;

  @Column({ name: 'ticket_id', type: 'text' })
  ticketId!: string;

  @ManyToOne(() => Ticket, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'ticket_id', foreignKeyConstraintName: 'messages_ticket_id_fkey' })
  ticket?: Relation<Ticket>;

  @Column({ name: 'author_id', type: 'text' })
  authorId!: string;

  @Column({ name: 'author_type', type: 'text' })
  authorType!: 'player' | 'agent';

  @Column({ type: 'text' })
  body!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
