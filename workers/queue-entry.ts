// The shape of one entry of the worker registry (workers/registry.ts): everything a
// worker process for one task queue needs to know about that queue.
import type { Client } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import type { Db } from '../db/db';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';

export interface QueueDeps {
  config: Config;
  db: Db;
  /** the worker's Temporal client, for activities that send Updates to other workflows */
  client?: Client;
}

export interface SideJobDeps extends QueueDeps {
  client: Client;
  logger: Logger;
}

export interface QueueEntry {
  /** the task queue name, also the argument of `npm run worker -- <queue>` */
  name: string;
  /**
   * The module exporting this queue's workflows and only them (workflows/queues/<name>.ts):
   * each queue bundles its own, so one queue's workflow change never redeploys another's.
   */
  workflowsPath: string;
  /** the workflow types in that module; the registry test checks the bundle against it */
  workflowTypes: readonly string[];
  /** the activities a worker of this queue registers, built over real dependencies */
  activities(deps: QueueDeps): object;
  /** Worker options on top of the shared defaults (WORKER_TUNING) */
  options?: Partial<WorkerOptions>;
  /**
   * This queue's workflows are started from the workflow-start outbox
   * (db/repositories/workflow-starts.ts): its worker runs the start dispatcher of this
   * queue's entries beside it (workers/workflow-start-dispatcher.ts).
   */
  startsFromOutbox?: boolean;
  /**
   * Jobs that run beside the queue's worker on its real queue name (schedules, the events
   * outbox's dispatcher). Resolves once they are up, to a function that stops them.
   */
  sideJobs?(deps: SideJobDeps): Promise<() => Promise<void>>;
}
