import type { MigrationInterface, QueryRunner } from 'typeorm';

// The ticket workflow's step log (docs/tickets.md, "Step keys"): which change (its key,
// e.g. `update:<Update id>`) each stored lifecycle step was. A step numbered n is only a
// retry of the step stored as n when it carries the same key; a workflow task lost after
// its local activity committed may run its pending Updates in another order on retry,
// and the number alone would answer one change with another's result. Written in the
// step's own transaction; rows go with their ticket. Steps stored before this table
// have no row, and requests without a key keep the old rule.
export class TicketSteps1732240000070 implements MigrationInterface {
  name = 'TicketSteps1732240000070';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ticket_steps (
        ticket_id text NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        version integer NOT NULL,
        step_key text NOT NULL,
        CONSTRAINT ticket_steps_pkey PRIMARY KEY (ticket_id, version),
        CONSTRAINT ticket_steps_ticket_id_step_key_key UNIQUE (ticket_id, step_key)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ticket_steps`);
  }
}
