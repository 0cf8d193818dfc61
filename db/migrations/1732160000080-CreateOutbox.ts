import type { MigrationInterface, QueryRunner } from 'typeorm';

// The create path writes the ticket row and an outbox entry in one
// transaction; a dispatcher in the ticketing worker starts the ticket's workflow from it.
// Idempotency keys get a lease (an in-progress key whose request died is taken over once
// the lease lapses) and the id of what their first request created.
export class CreateOutbox1732160000080 implements MigrationInterface {
  name = 'CreateOutbox1732160000080';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ticket_workflow_starts (
        ticket_id text PRIMARY KEY REFERENCES tickets(id) ON DELETE CASCADE,
        input jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        claimed_at timestamptz
      );
      CREATE INDEX ticket_workflow_starts_created ON ticket_workflow_starts (created_at);
      CREATE FUNCTION notify_ticket_starts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('ticket_starts', '');
        RETURN NULL;
      END $$;
      CREATE TRIGGER ticket_starts_notify AFTER INSERT ON ticket_workflow_starts
        FOR EACH STATEMENT EXECUTE FUNCTION notify_ticket_starts();

      ALTER TABLE idempotency_keys
        ADD COLUMN locked_until timestamptz,
        ADD COLUMN lease_token text,
        ADD COLUMN resource_id text;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE idempotency_keys DROP COLUMN locked_until, DROP COLUMN lease_token, DROP COLUMN resource_id;
      DROP TRIGGER IF EXISTS ticket_starts_notify ON ticket_workflow_starts;
      DROP FUNCTION IF EXISTS notify_ticket_starts();
      DROP TABLE IF EXISTS ticket_workflow_starts;
    `);
  }
}
