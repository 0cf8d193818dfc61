import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

export type Plan = 'starter' | 'growth' | 'scale';

/** A customer studio; its plan sets rate limits and the monthly ticket quota. */
@Entity({ name: 'organizations' })
@Check('organizations_plan_check', `plan IN ('starter','growth','scale')`)
export class Organization {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'organizations_pkey' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', default: 'starter' })
  plan!: Plan;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
