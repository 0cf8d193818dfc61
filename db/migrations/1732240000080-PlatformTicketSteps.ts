import type { MigrationInterface, QueryRunner } from 'typeorm';

// The platform tickets' step log (docs/platform.md, "Step keys"): which change (its step
// key: `update:<Update id>`, `automation:<rule id>:<origin>`) made which numbered step of a
// ticket, written in the step's own transaction (domain/platform/apply-ticket-change.ts).
// A step number is one change's and a change is one step: the primary key and the unique
// key. The rows go with their ticket (the purge's delete, or its workspace's, cascades).
// Steps stored before this migration, and by requests without a key, have no row.
export class PlatformTicketSteps1732240000080 implements MigrationInterface {
  name = 'PlatformTicketSteps1732240000080';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE platform_ticket_steps (
        ticket_id text NOT NULL REFERENCES platform_tickets(id) ON DELETE CASCADE,
        version integer NOT NULL,
        step_key text NOT NULL,
        CONSTRAINT platform_ticket_steps_pkey PRIMARY KEY (ticket_id, version),
        CONSTRAINT platform_ticket_steps_ticket_id_step_key_key UNIQUE (ticket_id, step_key)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE platform_ticket_steps`);
  }
}
