import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Organization } from './organization.entity';

/** Tickets created per organization and UTC month: the plan's monthly quota counts here. */
@Entity({ name: 'ticket_usage' })
export class TicketUsage {
  @PrimaryColumn({ name: 'organization_id', type: 'text', primaryKeyConstraintName: 'ticket_usage_pkey' })
  organizationId!: string;

  @ManyToOne(() => Organization, { nullable: false })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'ticket_usage_organization_id_fkey' })
  organization?: Relation<Organization>;

  /** 'YYYY-MM' (UTC) */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'ticket_usage_pkey' })
  month!: string;

  @Column({ type: 'integer', default: 0 })
  count!: number;
}
