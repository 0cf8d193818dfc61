// The set-up every platform ticket workflow test shares: a time-skipping server, one worker
// of the platform queue with the workflow's real activities over the test database (some
// replaced by a test's own), a tenant, and `ticket()`, which stores a ticket as the API
// writes it and starts its workflow run. Registers its own beforeAll/afterAll.
import assert from 'node:assert/strict';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { connectDb, type Db } from '../../db/db';
import { createPlatformTenant, type PlatformTenant } from '../../domain/platform/create-tenant';
import { createPlatformTicket } from '../../domain/platform/create-ticket';
import type { PlatformEnvironment, PlatformTicketPriority } from '../../domain/platform/types';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { PLATFORM_TICKET_WORKFLOW_TYPE, platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import { platformTicketActivities } from './platform-ticket-activities';
import { timeSkippingEnv } from './temporal';

// activities the test replaces, by name
type ActivityOverrides = object;

export interface SuiteTicket {
  /** default: the suite's tenant */
  tenant?: PlatformTenant;
  subject?: string;
  body?: string;
  priority?: PlatformTicketPriority;
  assigneeId?: string | null;
  /** default: test */
  environment?: PlatformEnvironment;
  /** the start input's riskInTask (default: absent, the assessments as activities) */
  riskInTask?: boolean;
}

export interface StartedTicket {
  ticketId: string;
  handle: WorkflowHandle;
  /** the ticket's created_at, in the test server's time (ms) */
  createdAt: number;
}

export interface PlatformTicketSuite {
  readonly env: TestWorkflowEnvironment;
  readonly db: Db;
  readonly tenant: PlatformTenant;
  readonly taskQueue: string;
  ticket(t?: SuiteTicket): Promise<StartedTicket>;
}

/** The refusal code an Update's failure carries (the API's error code), or 'accepted' when it went through. */
export async function refusalCode(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof WorkflowUpdateFailedError, String(err));
    return (err.cause as { type?: string }).type;
  }
  return 'accepted';
}

/** The caller the API would pass for the tenant's admin. */
export function tenantAdmin(tenant: PlatformTenant) {
  return { organizationId: tenant.organizationId, workspaceId: tenant.workspaceId, userId: tenant.adminUserId, role: 'admin' as const, isOrgAdmin: true };
}

export function platformTicketSuite(taskQueue: string, opts: { tenantName: string; activities?: (db: Db) => ActivityOverrides }): PlatformTicketSuite {
  let env: TestWorkflowEnvironment;
  let db: Db;
  let tenant: PlatformTenant;
  let worker: Worker;
  let running: Promise<void>;

  beforeAll(async () => {
    db = await connectDb(loadConfig().databaseUrl, 5);
    tenant = await createPlatformTenant(db, { name: `${opts.tenantName} ${process.pid} ${newId('req')}` });
    env = await timeSkippingEnv();
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath: require.resolve('../../workflows/queues/platform'),
      activities: platformTicketActivities(db, opts.activities?.(db)),
    });
    running = worker.run();
  }, 120_000);

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
    await db?.close();
  });

  async function ticket(t: SuiteTicket = {}): Promise<StartedTicket> {
    const owner = t.tenant ?? tenant;
    const ticketId = newId('tkt');
    const assigneeId = t.assigneeId ?? null;
    const createdAt = await env.currentTimeMs();
    await db.transaction((m) =>
      createPlatformTicket(m, tenantAdmin(owner), {
        ticketId, environment: t.environment ?? 'test', channelId: owner.channelIds.email, subject: t.subject ?? 'Lost items', body: t.body ?? 'All gone',
        contactEmail: 'p@example.com', priority: t.priority ?? 'normal', assigneeId, tags: [], now: new Date(createdAt),
      }),
    );
    const handle = await env.client.workflow.start(PLATFORM_TICKET_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: platformTicketWorkflowId(ticketId),
      args: [{ ticketId, workspaceId: owner.workspaceId, assigneeId, ...(t.riskInTask ? { riskInTask: true } : {}) }],
    });
    return { ticketId, handle, createdAt };
  }

  return {
    get env() { return env; },
    get db() { return db; },
    get tenant() { return tenant; },
    taskQueue,
    ticket,
  };
}
