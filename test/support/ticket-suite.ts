// The set-up the /v1 ticket workflow tests share (as platform-ticket-suite.ts is the
// platform's): a time-skipping server, one ticket worker with the real activities over the
// test database, and `openTicket()`, which starts a ticket's workflow run as the API does
// and waits for its `created` Update. Registers its own beforeAll/afterAll.
import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { connectDb, type Db } from '../../db/db';
import type { Triager } from '../../domain/tickets/types';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { createdUpdate, ticketWorkflowId, type CreateTicketInput } from '../../workflows/ticket/contract';
import { ticketWorkflow } from '../../workflows/ticket/ticket.workflow';
import { createAgent, createPlayer, createTenant } from './factories';
import { ticketWorker, timeSkippingEnv } from './temporal';

export interface OpenTicket {
  /** the workspace's settings (default: the factory's) */
  settings?: object;
  priority?: CreateTicketInput['priority'];
  title?: string;
  body?: string;
}

export interface OpenedTicket {
  handle: WorkflowHandle<typeof ticketWorkflow>;
  input: CreateTicketInput;
  ticketId: string;
  player: Awaited<ReturnType<typeof createPlayer>>;
  /** an agent of the ticket's workspace */
  agent: Awaited<ReturnType<typeof createAgent>>;
}

export interface TicketSuite {
  readonly env: TestWorkflowEnvironment;
  readonly db: Db;
  readonly taskQueue: string;
  openTicket(t?: OpenTicket): Promise<OpenedTicket>;
}

/** `opts.triager`: the worker's triage model instead of the local one (a test's stand-in). */
export function ticketSuite(taskQueue: string, opts: { triager?: Triager } = {}): TicketSuite {
  let env: TestWorkflowEnvironment;
  let db: Db;
  let worker: Worker;
  let running: Promise<void>;

  beforeAll(async () => {
    db = await connectDb(loadConfig().databaseUrl, 5);
    env = await timeSkippingEnv();
    worker = await ticketWorker({ connection: env.nativeConnection, taskQueue, db, triager: opts.triager });
    running = worker.run();
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
    await db?.close();
  });

  async function openTicket(t: OpenTicket = {}): Promise<OpenedTicket> {
    const { input, player, agent } = await newTicketInput(db, env, t);
    const handle = await env.client.workflow.start(ticketWorkflow, { args: [input], workflowId: ticketWorkflowId(input.ticketId), taskQueue });
    assert.deepEqual(await handle.executeUpdate(createdUpdate), { ticketId: input.ticketId, version: 1 });
    return { handle, input, ticketId: input.ticketId, player, agent };
  }

  return {
    get env() {
      return env;
    },
    get db() {
      return db;
    },
    taskQueue,
    openTicket,
  };
}

/**
 * A new tenant with a player and an agent, and the input of a ticket of that player as the
 * API passes it to the workflow (created now in the test server's time; `stored`: the API
 * stored the row first, as every create since the outbox does).
 */
export async function newTicketInput(db: Db, env: TestWorkflowEnvironment, t: OpenTicket & { stored?: true } = {}) {
  const { org, workspace } = await createTenant(db, t.settings ? { settings: t.settings } : {});
  const player = await createPlayer(db, workspace.id);
  const agent = await createAgent(db, workspace.id);
  const input: CreateTicketInput = {
    ticketId: newId('tkt'),
    workspaceId: workspace.id,
    organizationId: org.id,
    playerRef: player.id,
    playerId: player.playerId,
    title: t.title ?? 'Game crashes on launch',
    body: t.body ?? 'Since the last patch the game crashes to desktop.',
    category: null,
    priority: t.priority ?? 'medium',
    source: 'api',
    tags: [],
    metadata: {},
    createdAt: new Date(await env.currentTimeMs()).toISOString(),
    searchAttributes: false,
    ...(t.stored ? { stored: true } : {}),
  };
  return { input, player, agent };
}
