import type { MigrationInterface, QueryRunner } from 'typeorm';

// One outbox for every workflow an entity gets: `workflow_starts` holds, per workflow id,
// what starting it takes (type, task queue, arguments as JSON, search attributes, memo).
// The change that creates an entity writes its entry in the same transaction; the start
// dispatcher of the entry's task queue (workers/workflow-start-dispatcher.ts) starts the
// workflow and deletes the entry. An AFTER INSERT trigger NOTIFYs
// `workflow_starts_<task queue>`, so a queue's dispatcher wakes only for its own entries.
//
// It replaces the ticket outbox (`ticket_workflow_starts`): pending ticket starts move
// over with the search attributes their dispatcher used to add. Push sends, which started
// their workflow from the request with a sweep for sends left without one, get an entry
// for every send still `queued` (a send whose workflow already runs is not started again:
// starts are REJECT_DUPLICATE).
export class WorkflowStarts1732190000001 implements MigrationInterface {
  name = 'WorkflowStarts1732190000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE workflow_starts (
        workflow_id text PRIMARY KEY,
        workflow_type text NOT NULL,
        task_queue text NOT NULL,
        args jsonb NOT NULL,
        search_attributes jsonb,
        memo jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        claimed_at timestamptz
      );
      CREATE INDEX workflow_starts_queue ON workflow_starts (task_queue, created_at);
      CREATE FUNCTION notify_workflow_starts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('workflow_starts_' || regexp_replace(lower(NEW.task_queue), '[^a-z0-9_]', '_', 'g'), '');
        RETURN NULL;
      END $$;
      CREATE TRIGGER workflow_starts_notify AFTER INSERT ON workflow_starts
        FOR EACH ROW EXECUTE FUNCTION notify_workflow_starts();

      INSERT INTO workflow_starts (workflow_id, workflow_type, task_queue, args, search_attributes, created_at)
      SELECT 'ticket/' || ticket_id, 'ticketWorkflow', 'ticketing', jsonb_build_array(input),
             CASE WHEN (input->>'searchAttributes')::boolean THEN jsonb_build_object(
               'WorkspaceId', jsonb_build_array(input->'workspaceId'),
               'TicketStatus', '["open"]'::jsonb,
               'TicketPriority', jsonb_build_array(input->'priority')) END,
             created_at
        FROM ticket_workflow_starts;
      INSERT INTO workflow_starts (workflow_id, workflow_type, task_queue, args, created_at)
      SELECT 'push-send/' || id, 'pushSendWorkflow', 'push', jsonb_build_array(jsonb_build_object('sendId', id)), created_at
        FROM push_sends WHERE status = 'queued'
      ON CONFLICT (workflow_id) DO NOTHING;

      DROP TRIGGER ticket_starts_notify ON ticket_workflow_starts;
      DROP FUNCTION notify_ticket_starts();
      DROP TABLE ticket_workflow_starts;
    `);
  }

  // The ticket outbox comes back with the pending ticket starts (of tickets that still
  // exist). Pending push sends need no entry there: they are `queued`, and the push
  // worker of that version starts every send still queued a minute after its commit.
  async down(q: QueryRunner): Promise<void> {
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

      INSERT INTO ticket_workflow_starts (ticket_id, input, created_at)
      SELECT s.args->0->>'ticketId', s.args->0, s.created_at
        FROM workflow_starts s JOIN tickets t ON t.id = s.args->0->>'ticketId'
       WHERE s.workflow_type = 'ticketWorkflow';

      DROP TRIGGER workflow_starts_notify ON workflow_starts;
      DROP FUNCTION notify_workflow_starts();
      DROP TABLE workflow_starts;
    `);
  }
}
