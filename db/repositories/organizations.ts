// organizations: the customer studios and their plans.
import { Organization, type Plan } from '../entities/organization.entity';
import { managerOf, type Executor } from '../db';

export async function findOrganization(executor: Executor, id: string): Promise<Organization | null> {
  return managerOf(executor).findOne(Organization, { where: { id } });
}

/** The plan, or null for an unknown organization. */
export async function organizationPlan(executor: Executor, id: string): Promise<Plan | null> {
  const row = await managerOf(executor).findOne(Organization, { select: { id: true, plan: true }, where: { id } });
  return row?.plan ?? null;
}

/** Idempotent (the bootstrap runs on every `npm start`). */
export async function ensureOrganization(executor: Executor, o: { id: string; name: string; plan: Plan }): Promise<void> {
  await managerOf(executor).createQueryBuilder().insert().into(Organization).values(o).orIgnore().execute();
}
