import type { MigrationInterface, QueryRunner } from 'typeorm';

// Campaigns (push part 2): a message to an audience of an app (a segment, or every active
// device), sent now or at a scheduled time by its workflow `campaign/<id>`. When sending
// starts, the audience is snapshotted into one push_sends row with the campaign's id and
// one push_notifications row per device (positions 0..N-1), which the send activities
// page through as for a direct send. The unique index on push_sends.campaign_id makes the
// snapshot idempotent: a retried snapshot finds the send it made. A cancelled campaign's
// rows not pushed yet become `cancelled` (neither sent nor failed in analytics).
export class PushCampaigns1732200000010 implements MigrationInterface {
  name = 'PushCampaigns1732200000010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE push_campaigns (
        id uuid PRIMARY KEY,
        app_id uuid NOT NULL REFERENCES push_apps(id) ON DELETE CASCADE,
        name text NOT NULL,
        title text NOT NULL,
        body text NOT NULL,
        image_url text,
        deep_link text,
        custom_data jsonb NOT NULL DEFAULT '{}'::jsonb,
        target_type text NOT NULL CONSTRAINT push_campaigns_target_type_check CHECK (target_type IN ('Segment','All')),
        segment_id uuid,
        status text NOT NULL DEFAULT 'Draft' CONSTRAINT push_campaigns_status_check
          CHECK (status IN ('Draft','Queued','Scheduled','Sending','Completed','Cancelled','Failed')),
        scheduled_at timestamptz,
        send_id uuid,
        recipients integer,
        failure_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        CONSTRAINT push_campaigns_segment_check CHECK ((target_type = 'Segment') = (segment_id IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX push_campaigns_app ON push_campaigns (app_id, created_at)`);
    await q.query(`CREATE UNIQUE INDEX push_sends_campaign ON push_sends (campaign_id)`);
    await q.query(`ALTER TABLE push_notifications DROP CONSTRAINT push_notifications_status_check`);
    await q.query(`ALTER TABLE push_notifications ADD CONSTRAINT push_notifications_status_check
      CHECK (status IN ('queued','sent','failed','cancelled'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM push_notifications WHERE status = 'cancelled'`);
    await q.query(`ALTER TABLE push_notifications DROP CONSTRAINT push_notifications_status_check`);
    await q.query(`ALTER TABLE push_notifications ADD CONSTRAINT push_notifications_status_check
      CHECK (status IN ('queued','sent','failed'))`);
    await q.query(`DROP INDEX IF EXISTS push_sends_campaign`);
    await q.query(`DROP TABLE IF EXISTS push_campaigns`);
  }
}
