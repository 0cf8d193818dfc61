import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** A push customer: self-service registration makes a company of one; trial approval a trial company. */
@Entity({ name: 'push_companies' })
@Check('push_companies_status_check', `status IN ('active','trial','trial_expired')`)
export class PushCompany {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_companies_pkey' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', default: 'active' })
  status!: 'active' | 'trial' | 'trial_expired';

  @Column({ name: 'trial_ends_at', type: 'timestamptz', nullable: true })
  trialEndsAt!: Date | null;

  /** the plan an operator approved the trial with */
  @Column({ name: 'plan_slug', type: 'text', nullable: true })
  planSlug!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
