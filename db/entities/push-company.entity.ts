import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** A push customer: self-service registration makes a company of one; trial approval a trial company. */
@Entity({ name: 'push_companies' })
@Check('push_companies_status_check', `status IN ('active','trial')`)
export class PushCompany {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_companies_pkey' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', default: 'active' })
  status!: 'active' | 'trial';

  @Column({ name: 'trial_ends_at', type: 'timestamptz', nullable: true })
  trialEndsAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
