import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PushCompany } from './push-company.entity';
import { PushUser } from './push-user.entity';

/**
 * A public request for a trial and what became of it (docs/trial-onboarding.md): the
 * operator's decision, the company and owner approval made, and the setup email's
 * bookkeeping. Its workflow, `trial-request/<id>`, is the only writer after submission.
 */
@Entity({ name: 'push_trial_requests' })
@Check('push_trial_requests_status_check', `status IN ('Submitted','Approved','Rejected')`)
@Check('push_trial_requests_setup_email_state_check', `setup_email_state IN ('none','sent','logged')`)
@Index('push_trial_requests_open_email', { synchronize: false }) // UNIQUE (lower(email)) WHERE status IN ('Submitted','Approved')
@Index('push_trial_requests_list', { synchronize: false }) // (created_at DESC, id)
export class PushTrialRequest {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_trial_requests_pkey' })
  id!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'full_name', type: 'text' })
  fullName!: string;

  @Column({ name: 'company_name', type: 'text' })
  companyName!: string;

  @Column({ type: 'text' })
  website!: string;

  @Column({ name: 'use_case', type: 'text' })
  useCase!: string;

  @Column({ name: 'expected_monthly_notifications', type: 'integer' })
  expectedMonthlyNotifications!: number;

  @Column({ name: 'requested_plan_slug', type: 'text' })
  requestedPlanSlug!: string;

  @Column({ type: 'text', default: 'Submitted' })
  status!: 'Submitted' | 'Approved' | 'Rejected';

  @Column({ name: 'plan_slug', type: 'text', nullable: true })
  planSlug!: string | null;

  @Column({ name: 'trial_days', type: 'integer', nullable: true })
  trialDays!: number | null;

  @Column({ name: 'admin_notes', type: 'text', nullable: true })
  adminNotes!: string | null;

  @Column({ name: 'decided_by', type: 'uuid', nullable: true })
  decidedBy!: string | null;

  @ManyToOne(() => PushUser, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'decided_by', foreignKeyConstraintName: 'push_trial_requests_decided_by_fkey' })
  decider?: Relation<PushUser>;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;

  @Column({ name: 'company_id', type: 'uuid', nullable: true })
  companyId!: string | null;

  @ManyToOne(() => PushCompany, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'push_trial_requests_company_id_fkey' })
  company?: Relation<PushCompany>;

  @Column({ name: 'owner_id', type: 'uuid', nullable: true })
  ownerId!: string | null;

  @ManyToOne(() => PushUser, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'owner_id', foreignKeyConstraintName: 'push_trial_requests_owner_id_fkey' })
  owner?: Relation<PushUser>;

  @Column({ name: 'setup_email_state', type: 'text', default: 'none' })
  setupEmailState!: 'none' | 'sent' | 'logged';

  @Column({ name: 'setup_email_attempts', type: 'integer', default: 0 })
  setupEmailAttempts!: number;

  @Column({ name: 'setup_email_last_attempt_at', type: 'timestamptz', nullable: true })
  setupEmailLastAttemptAt!: Date | null;

  @Column({ name: 'setup_email_provider', type: 'text', nullable: true })
  setupEmailProvider!: string | null;

  @Column({ name: 'setup_email_message_id', type: 'text', nullable: true })
  setupEmailMessageId!: string | null;

  @Column({ name: 'setup_email_last_error', type: 'text', nullable: true })
  setupEmailLastError!: string | null;

  @Column({ name: 'setup_link_generated_at', type: 'timestamptz', nullable: true })
  setupLinkGeneratedAt!: Date | null;

  /** the trial end whose reminder went out (an extension makes a new one due) */
  @Column({ name: 'reminded_for', type: 'timestamptz', nullable: true })
  remindedFor!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
