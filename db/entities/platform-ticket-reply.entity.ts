import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PlatformTicket } from './platform-ticket.entity';
import { PlatformUser } from './platform-user.entity';

/** A reply on a platform API ticket (its author, a platform user, when one wrote it). */
@Entity({ name: 'platform_ticket_replies' })
@Index('platform_ticket_replies_ticket', ['ticketId', 'createdAt', 'id'])
export class PlatformTicketReply {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'platform_ticket_replies_pkey' })
  id!: string;

  @Column({ name: 'ticket_id', type: 'text' })
  ticketId!: string;

  @ManyToOne(() => PlatformTicket, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'ticket_id', foreignKeyConstraintName: 'platform_ticket_replies_ticket_id_fkey' })
  ticket?: Relation<PlatformTicket>;

  @Column({ name: 'author_id', type: 'text', nullable: true })
  authorId!: string | null;

  @ManyToOne(() => PlatformUser)
  @JoinColumn({ name: 'author_id', foreignKeyConstraintName: 'platform_ticket_replies_author_id_fkey' })
  author?: Relation<PlatformUser> | null;

  @Column({ type: 'text' })
  body!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  /** the ticket workflow's step that published it; null while it is the API's draft (hidden) */
  @Column({ type: 'integer', nullable: true })
  version!: number | null;
}
