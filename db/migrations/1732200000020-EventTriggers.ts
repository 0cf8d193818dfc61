import type { MigrationInterface, QueryRunner } from 'typeorm';

// Event triggers (docs/push.md, "Event triggers"): push_event_triggers holds an app's
// triggers, push_trigger_firings one row per (fire, matched trigger) with the text
// rendered at fire time and when it is due. A firing outlives its trigger (trigger_id
// becomes null: its workflow wakes, finds the trigger gone and records skipped_deleted)
// but not its app (ON DELETE CASCADE: the workflow wakes, finds nothing and ends). The
// (app_id, event_name) index is the fire's one read; fire_id finds the firings of one
// fire request (an Idempotency-Key retry after a lost answer).
export class EventTriggers1732200000020 implements MigrationInterface {
  name = 'EventTriggers1732200000020';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE push_event_triggers (
        id uuid PRIMARY KEY,
        app_id uuid NOT NULL REFERENCES push_apps(id) ON DELETE CASCADE,
        name text NOT NULL,
        event_name text NOT NULL,
        delay_minutes integer NOT NULL CONSTRAINT push_event_triggers_delay_check CHECK (delay_minutes BETWEEN 0 AND 10080),
        conditions jsonb NOT NULL DEFAULT '[]'::jsonb,
        title text NOT NULL,
        body text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX push_event_triggers_app ON push_event_triggers (app_id, created_at)`);
    await q.query(`CREATE INDEX push_event_triggers_app_event ON push_event_triggers (app_id, event_name)`);
    await q.query(`
      CREATE TABLE push_trigger_firings (
        id uuid PRIMARY KEY,
        fire_id uuid NOT NULL,
        app_id uuid NOT NULL REFERENCES push_apps(id) ON DELETE CASCADE,
        trigger_id uuid REFERENCES push_event_triggers(id) ON DELETE SET NULL,
        device_id uuid NOT NULL,
        title text NOT NULL,
        body text NOT NULL,
        send_at timestamptz NOT NULL,
        status text NOT NULL DEFAULT 'pending' CONSTRAINT push_trigger_firings_status_check
          CHECK (status IN ('pending','sending','sent','failed','skipped_disabled','skipped_deleted','skipped_device')),
        send_id uuid REFERENCES push_sends(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX push_trigger_firings_fire ON push_trigger_firings (fire_id)`);
    await q.query(`CREATE INDEX push_trigger_firings_trigger ON push_trigger_firings (trigger_id)`);
    await q.query(`CREATE INDEX push_trigger_firings_app ON push_trigger_firings (app_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE push_trigger_firings`);
    await q.query(`DROP TABLE push_event_triggers`);
  }
}
