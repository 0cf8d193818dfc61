import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PushCompany } from './push-company.entity';
import { PushTrialRequest } from './push-trial-request.entity';
import { PushUser } from './push-user.entity';

/** Who did what to a trial request and when (docs/trial-onboarding.md, "Audit"); actor null: the public or the system. */
@Entity({ name: 'push_audit_events' })
@Index('push_audit_events_request', ['trialRequestId', 'createdAt'])
export class PushAuditEvent {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_audit_events_pkey' })
  id!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ name: 'trial_request_id', type: 'uuid', nullable: true })
  trialRequestId!: string | null;

  @ManyToOne(() => PushTrialRequest, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'trial_request_id', foreignKeyConstraintName: 'push_audit_events_trial_request_id_fkey' })
  trialRequest?: Relation<PushTrialRequest>;

  @Column({ name: 'company_id', type: 'uuid', nullable: true })
  companyId!: string | null;

  @ManyToOne(() => PushCompany, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'push_audit_events_company_id_fkey' })
  company?: Relation<PushCompany>;

  @Column({ name: 'actor_id', type: 'uuid', nullable: true })
  actorId!: string | null;

  @ManyToOne(() => PushUser, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'actor_id', foreignKeyConstraintName: 'push_audit_events_actor_id_fkey' })
  actor?: Relation<PushUser>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  details!: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
