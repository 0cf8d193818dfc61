import type { MigrationInterface, QueryRunner } from 'typeorm';

// A NOTIFY on `push_app_credentials` with the app's id whenever an app's sealed FCM or
// APNs credentials appear, change or go (the app deleted, by hand or by its company's
// cascade). The local push sink of a stack (scripts/push-sink/db-trust.ts) LISTENs to it
// and reloads that app, so a key uploaded through the API is trusted for the next send
// the way Google and Apple know their customers' keys. A trigger rather than a NOTIFY in
// the repository: every writer (the API, the admin bootstrap, test factories) is covered,
// and the notification is sent only if the change commits. Renames send nothing.
export class PushAppCredentialsNotify1732200000001 implements MigrationInterface {
  name = 'PushAppCredentialsNotify1732200000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION notify_push_app_credentials() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          IF OLD.fcm_credentials IS NOT NULL OR OLD.apns_credentials IS NOT NULL THEN
            PERFORM pg_notify('push_app_credentials', OLD.id::text);
          END IF;
        ELSIF TG_OP = 'INSERT' THEN
          IF NEW.fcm_credentials IS NOT NULL OR NEW.apns_credentials IS NOT NULL THEN
            PERFORM pg_notify('push_app_credentials', NEW.id::text);
          END IF;
        ELSIF NEW.fcm_credentials IS DISTINCT FROM OLD.fcm_credentials
           OR NEW.apns_credentials IS DISTINCT FROM OLD.apns_credentials THEN
          PERFORM pg_notify('push_app_credentials', NEW.id::text);
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER push_apps_credentials_notify
        AFTER INSERT OR UPDATE OF fcm_credentials, apns_credentials OR DELETE ON push_apps
        FOR EACH ROW EXECUTE FUNCTION notify_push_app_credentials();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER IF EXISTS push_apps_credentials_notify ON push_apps;
      DROP FUNCTION IF EXISTS notify_push_app_credentials();
    `);
  }
}
