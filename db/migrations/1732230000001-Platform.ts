import type { MigrationInterface, QueryRunner } from 'typeorm';

// The platform API, part 1 (docs/platform.md): its own tables, apart from /v1's.
// - An organisation owns workspaces and users; a user's role (agent, manager, admin) is
//   organisation-wide, an organisation admin is an admin with is_org_admin, and a user
//   works in the workspaces of their memberships.
// - Tokens (`service_live_…`, `service_test_…`) are scoped to one workspace and to their
//   creator; only a SHA-256 of the secret is kept (as lib/api-keys.ts).
// - Tickets and their replies carry their environment: a test token never reads a live
//   ticket and the reverse. Workspaces, channels and users are shared by both.
// - Timers kept by workflows leave their marks here: a token's expired_at, a workspace's
//   purge_at (30-day grace), a user's deactivated_at (90-day reactivation, then erasure),
//   a ticket's purge_at (30-day soft delete).
// - A workspace's removal cascades to everything in it; users stay with the organisation.
export class Platform1732230000001 implements MigrationInterface {
  name = 'Platform1732230000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE platform_organizations (
        id text PRIMARY KEY,
        name text NOT NULL,
        -- per-token limits a minute for enterprise customers (npm run admin -- set-limits); null: the spec's
        read_limit integer,
        write_limit integer,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE platform_workspaces (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES platform_organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        timezone text NOT NULL DEFAULT 'UTC',
        default_language text NOT NULL DEFAULT 'en',
        plan jsonb NOT NULL,
        status text NOT NULL DEFAULT 'active' CONSTRAINT platform_workspaces_status_check CHECK (status IN ('active','pending_deletion')),
        deletion_requested_at timestamptz,
        purge_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX platform_workspaces_org ON platform_workspaces (organization_id, created_at, id);

      CREATE TABLE platform_channels (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES platform_workspaces(id) ON DELETE CASCADE,
        type text NOT NULL CONSTRAINT platform_channels_type_check CHECK (type IN ('email','web','chat','in_game','api')),
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX platform_channels_workspace ON platform_channels (workspace_id, created_at, id);

      CREATE TABLE platform_users (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES platform_organizations(id) ON DELETE CASCADE,
        -- lower-cased; null once erased (90 days after deactivation)
        email text,
        name text,
        role text NOT NULL CONSTRAINT platform_users_role_check CHECK (role IN ('agent','manager','admin')),
        is_org_admin boolean NOT NULL DEFAULT false,
        status text NOT NULL CONSTRAINT platform_users_status_check CHECK (status IN ('invited','active','deactivated','erased')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        last_active_at timestamptz,
        activated_at timestamptz,
        deactivated_at timestamptz,
        erased_at timestamptz
      );
      CREATE UNIQUE INDEX platform_users_email ON platform_users (organization_id, email);
      CREATE INDEX platform_users_org ON platform_users (organization_id, created_at, id);

      CREATE TABLE platform_memberships (
        workspace_id text NOT NULL REFERENCES platform_workspaces(id) ON DELETE CASCADE,
        user_id text NOT NULL REFERENCES platform_users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, user_id)
      );
      CREATE INDEX platform_memberships_user ON platform_memberships (user_id);

      -- single-use activation links of invited users: only a SHA-256 of each is kept
      CREATE TABLE platform_activation_tokens (
        token_hash text PRIMARY KEY,
        user_id text NOT NULL REFERENCES platform_users(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX platform_activation_tokens_user ON platform_activation_tokens (user_id);

      CREATE TABLE platform_tokens (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES platform_organizations(id) ON DELETE CASCADE,
        workspace_id text NOT NULL REFERENCES platform_workspaces(id) ON DELETE CASCADE,
        user_id text NOT NULL REFERENCES platform_users(id) ON DELETE CASCADE,
        name text NOT NULL,
        environment text NOT NULL CONSTRAINT platform_tokens_environment_check CHECK (environment IN ('live','test')),
        prefix text NOT NULL,
        secret_hash text NOT NULL CONSTRAINT platform_tokens_secret_hash_key UNIQUE,
        expires_at timestamptz,
        -- set by the token's expiry timer (the request path compares expires_at itself)
        expired_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX platform_tokens_org ON platform_tokens (organization_id, created_at, id);
      CREATE INDEX platform_tokens_user ON platform_tokens (user_id);

      CREATE TABLE platform_tickets (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES platform_organizations(id) ON DELETE CASCADE,
        workspace_id text NOT NULL REFERENCES platform_workspaces(id) ON DELETE CASCADE,
        environment text NOT NULL CONSTRAINT platform_tickets_environment_check CHECK (environment IN ('live','test')),
        channel_id text NOT NULL REFERENCES platform_channels(id) ON DELETE CASCADE,
        subject text NOT NULL,
        body text NOT NULL DEFAULT '',
        contact_email text NOT NULL,
        priority text NOT NULL CONSTRAINT platform_tickets_priority_check CHECK (priority IN ('critical','high','normal','low')),
        status text NOT NULL DEFAULT 'open' CONSTRAINT platform_tickets_status_check CHECK (status IN ('open','pending','resolved','closed')),
        assignee_id text REFERENCES platform_users(id),
        tags text[] NOT NULL DEFAULT '{}',
        created_by text REFERENCES platform_users(id),
        -- the step number of the ticket workflow's last change
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        resolved_at timestamptz,
        closed_at timestamptz,
        -- soft delete: hidden from reads, restorable until purge_at (30 days)
        deleted_at timestamptz,
        purge_at timestamptz
      );
      CREATE INDEX platform_tickets_list ON platform_tickets (workspace_id, environment, created_at, id);
      CREATE INDEX platform_tickets_assignee ON platform_tickets (assignee_id);

      CREATE TABLE platform_ticket_replies (
        id text PRIMARY KEY,
        ticket_id text NOT NULL REFERENCES platform_tickets(id) ON DELETE CASCADE,
        author_id text REFERENCES platform_users(id),
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX platform_ticket_replies_ticket ON platform_ticket_replies (ticket_id, created_at, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE platform_ticket_replies;
      DROP TABLE platform_tickets;
      DROP TABLE platform_tokens;
      DROP TABLE platform_activation_tokens;
      DROP TABLE platform_memberships;
      DROP TABLE platform_users;
      DROP TABLE platform_channels;
      DROP TABLE platform_workspaces;
      DROP TABLE platform_organizations;
    `);
  }
}
