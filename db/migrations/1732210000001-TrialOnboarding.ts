import type { MigrationInterface, QueryRunner } from 'typeorm';

// Trial onboarding (docs/trial-onboarding.md): public trial requests, the setup tokens
// that let an approved owner set a password (only a SHA-256 of each is kept), and the
// audit events of the flow. An approved owner has no password until the setup link is
// used (password_hash null: login refuses it). A company whose trial ran out is
// `trial_expired` (its keys and tokens answer 403 TRIAL_EXPIRED); plan_slug is the plan an
// operator approved.
export class TrialOnboarding1732210000001 implements MigrationInterface {
  name = 'TrialOnboarding1732210000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE push_users ALTER COLUMN password_hash DROP NOT NULL;
      ALTER TABLE push_companies DROP CONSTRAINT push_companies_status_check,
        ADD CONSTRAINT push_companies_status_check CHECK (status IN ('active','trial','trial_expired')),
        ADD COLUMN plan_slug text;

      CREATE TABLE push_trial_requests (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        full_name text NOT NULL,
        company_name text NOT NULL,
        website text NOT NULL,
        use_case text NOT NULL,
        expected_monthly_notifications integer NOT NULL,
        requested_plan_slug text NOT NULL,
        status text NOT NULL DEFAULT 'Submitted' CONSTRAINT push_trial_requests_status_check CHECK (status IN ('Submitted','Approved','Rejected')),
        plan_slug text,
        trial_days integer,
        admin_notes text,
        decided_by uuid REFERENCES push_users(id) ON DELETE SET NULL,
        decided_at timestamptz,
        company_id uuid REFERENCES push_companies(id) ON DELETE SET NULL,
        owner_id uuid REFERENCES push_users(id) ON DELETE SET NULL,
        setup_email_state text NOT NULL DEFAULT 'none' CONSTRAINT push_trial_requests_setup_email_state_check CHECK (setup_email_state IN ('none','sent','logged')),
        setup_email_attempts integer NOT NULL DEFAULT 0,
        setup_email_last_attempt_at timestamptz,
        setup_email_provider text,
        setup_email_message_id text,
        setup_email_last_error text,
        setup_link_generated_at timestamptz,
        reminded_for timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- one open request per email (any letter case): a second submission answers the first
      CREATE UNIQUE INDEX push_trial_requests_open_email ON push_trial_requests (lower(email)) WHERE status IN ('Submitted','Approved');
      CREATE INDEX push_trial_requests_list ON push_trial_requests (created_at DESC, id);

      CREATE TABLE push_setup_tokens (
        id uuid PRIMARY KEY,
        trial_request_id uuid NOT NULL REFERENCES push_trial_requests(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES push_users(id) ON DELETE CASCADE,
        token_hash text NOT NULL CONSTRAINT push_setup_tokens_token_hash_key UNIQUE,
        purpose text NOT NULL CONSTRAINT push_setup_tokens_purpose_check CHECK (purpose IN ('email','link')),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        voided_at timestamptz,
        expired_at timestamptz,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX push_setup_tokens_open ON push_setup_tokens (user_id) WHERE used_at IS NULL AND voided_at IS NULL AND expired_at IS NULL;
      CREATE INDEX push_setup_tokens_request ON push_setup_tokens (trial_request_id);

      CREATE TABLE push_audit_events (
        id uuid PRIMARY KEY,
        type text NOT NULL,
        trial_request_id uuid REFERENCES push_trial_requests(id) ON DELETE CASCADE,
        company_id uuid REFERENCES push_companies(id) ON DELETE SET NULL,
        actor_id uuid REFERENCES push_users(id) ON DELETE SET NULL,
        details jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX push_audit_events_request ON push_audit_events (trial_request_id, created_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE push_audit_events;
      DROP TABLE push_setup_tokens;
      DROP TABLE push_trial_requests;
      -- owners who never set a password cannot log in either way; trial_expired was a trial
      DELETE FROM push_users WHERE password_hash IS NULL;
      UPDATE push_companies SET status = 'trial' WHERE status = 'trial_expired';
      ALTER TABLE push_companies DROP COLUMN plan_slug, DROP CONSTRAINT push_companies_status_check,
        ADD CONSTRAINT push_companies_status_check CHECK (status IN ('active','trial'));
      ALTER TABLE push_users ALTER COLUMN password_hash SET NOT NULL;
    `);
  }
}
