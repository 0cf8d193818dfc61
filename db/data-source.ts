import 'reflect-metadata';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { Initial1732160000000 } from './migrations/1732160000000-Initial';
import { AuthAudit1732160000001 } from './migrations/1732160000001-AuthAudit';
import { Players1732160000002 } from './migrations/1732160000002-Players';
import { Webhooks1732160000003 } from './migrations/1732160000003-Webhooks';
import { WebhookDispatch1732160000004 } from './migrations/1732160000004-WebhookDispatch';
import { WebhookBatches1732160000005 } from './migrations/1732160000005-WebhookBatches';
import { TypeormMetadata1732160000006 } from './migrations/1732160000006-TypeormMetadata';
import { Push1732160000020 } from './migrations/1732160000020-Push';
import { WebhookEndpointPause1732160000050 } from './migrations/1732160000050-WebhookEndpointPause';
import { SigningKeysEncrypted1732170000001 } from './migrations/1732170000001-SigningKeysEncrypted';
import { ENTITIES } from './entities';
import { EventsRetention1732160000070 } from './migrations/1732160000070-EventsRetention';
import { CreateOutbox1732160000080 } from './migrations/1732160000080-CreateOutbox';
import { PushNotificationsHot1732180000001 } from './migrations/1732180000001-PushNotificationsHot';
import { WorkflowStarts1732190000001 } from './migrations/1732190000001-WorkflowStarts';
import { PushAppCredentialsNotify1732200000001 } from './migrations/1732200000001-PushAppCredentialsNotify';
import { PushCampaigns1732200000010 } from './migrations/1732200000010-PushCampaigns';
import { EventTriggers1732200000020 } from './migrations/1732200000020-EventTriggers';
import { TriggerBatches1732200000030 } from './migrations/1732200000030-TriggerBatches';
import { TrialOnboarding1732210000001 } from './migrations/1732210000001-TrialOnboarding';
import { WebhookApis1732220000001 } from './migrations/1732220000001-WebhookApis';
import { Platform1732230000001 } from './migrations/1732230000001-Platform';
import { PlatformUserLifecycle1732230000030 } from './migrations/1732230000030-PlatformUserLifecycle';
import { PlatformTickets1732230000040 } from './migrations/1732230000040-PlatformTickets';
import { PlatformTicketsLiveIndex1732230000050 } from './migrations/1732230000050-PlatformTicketsLiveIndex';
import { PlatformSlaPolicies1732230000060 } from './migrations/1732230000060-PlatformSlaPolicies';
import { PlatformWebhookEndpoints1732240000001 } from './migrations/1732240000001-PlatformWebhookEndpoints';
import { PlatformTicketFacts1732240000002 } from './migrations/1732240000002-PlatformTicketFacts';
import { WebhookSecretRotation1732240000010 } from './migrations/1732240000010-WebhookSecretRotation';
import { PlatformAutomations1732240000020 } from './migrations/1732240000020-PlatformAutomations';
import { PlatformFirstResponseBackfill1732240000030 } from './migrations/1732240000030-PlatformFirstResponseBackfill';
import { WebhookEnvironments1732240000050 } from './migrations/1732240000050-WebhookEnvironments';
import { WebhookTestMode1732240000060 } from './migrations/1732240000060-WebhookTestMode';
import { TicketSteps1732240000070 } from './migrations/1732240000070-TicketSteps';
import { PlatformTicketSteps1732240000080 } from './migrations/1732240000080-PlatformTicketSteps';

// Schema changes only ever come from the hand-written migrations listed here;
// `synchronize` stays off so TypeORM never alters a table by itself.
export const MIGRATIONS = [
  Initial1732160000000, AuthAudit1732160000001, Players1732160000002, Webhooks1732160000003,
  WebhookDispatch1732160000004,
  WebhookBatches1732160000005,
  TypeormMetadata1732160000006,
  Push1732160000020,
  WebhookEndpointPause1732160000050,
  SigningKeysEncrypted1732170000001,
  EventsRetention1732160000070,
  CreateOutbox1732160000080,
  PushNotificationsHot1732180000001,
  WorkflowStarts1732190000001,
  PushAppCredentialsNotify1732200000001,
  PushCampaigns1732200000010,
  EventTriggers1732200000020,
  TriggerBatches1732200000030,
  TrialOnboarding1732210000001,
  WebhookApis1732220000001,
  Platform1732230000001,
  PlatformUserLifecycle1732230000030,
  PlatformTickets1732230000040,
  PlatformTicketsLiveIndex1732230000050,
  PlatformSlaPolicies1732230000060,
  PlatformWebhookEndpoints1732240000001,
  PlatformTicketFacts1732240000002,
  WebhookSecretRotation1732240000010,
  PlatformAutomations1732240000020,
  PlatformFirstResponseBackfill1732240000030,
  WebhookEnvironments1732240000050,
  WebhookTestMode1732240000060,
  TicketSteps1732240000070,
  PlatformTicketSteps1732240000080,
];

/** The node-postgres pool TypeORM built for each DataSource (set by `initialize()`). */
const pools = new WeakMap<DataSource, pg.Pool>();

/**
 * The DataSource's own connection pool, once initialized: raw SQL outside a transaction
 * goes straight to it (db/db.ts `sql()`; docs/benchmarks.md: the query runner around each
 * lone query cost up to a quarter of a list request's CPU). One pool, TypeORM's own.
 */
export function poolOf(dataSource: DataSource): pg.Pool | undefined {
  return pools.get(dataSource);
}

/**
 * node-postgres as TypeORM's driver (its documented `driver` option), except that the
 * pool TypeORM builds from it is remembered for `poolOf`: no reach into the driver.
 */
function pgDriver(onPool: (pool: pg.Pool) => void): typeof pg {
  class Pool extends pg.Pool {
    constructor(config?: pg.PoolConfig) {
      super(config);
      onPool(this);
    }
  }
  return Object.create(pg, { Pool: { value: Pool } });
}

/** `statementTimeoutMs`: 0 for migrations, which may legitimately run long. */
export function createDataSource(url: string, poolSize = 20, statementTimeoutMs = 8000): DataSource {
  const dataSource: DataSource = new DataSource({
    type: 'postgres',
    driver: pgDriver((pool) => pools.set(dataSource, pool)),
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    // db/entities: the model in code. They never change the schema (synchronize is off);
    // test/db/entities-match-schema.test.ts proves they agree with the migrations.
    entities: ENTITIES,
    extra: {
      max: poolSize,
      // A PostgreSQL that is down or stuck is an error within seconds, never a hang:
      // the API answers 503 within 10 s and activities fail and retry (docs/reliability.md).
      connectionTimeoutMillis: 3000,
      statement_timeout: statementTimeoutMs,
      // The dev/test cluster runs with synchronous_commit = off (scripts/ensure.sh); what
      // the application commits (an acknowledged create, a step a workflow records as
      // done) must survive a crash of PostgreSQL, so its own sessions turn it back on.
      options: '-c synchronous_commit=on',
    },
    logging: false,
  });
  return dataSource;
}
