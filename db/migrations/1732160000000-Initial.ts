import type { MigrationInterface, QueryRunner } from 'typeorm';

// The ticketing schema. Hand-written and reviewed: every index here serves a query in
// db/repositories or api/ticketing (named in the comment beside it).
export class Initial1732160000000 implements MigrationInterface {
  name = 'Initial1732160000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organizations (
        id text PRIMARY KEY,
        name text NOT NULL,
        plan text NOT NULL DEFAULT 'starter' CHECK (plan IN ('starter','growth','scale')),
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE workspaces (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations(id),
        name text NOT NULL,
        -- sk_test_ keys see only sandbox workspaces, sk_live_ keys only live ones
        environment text NOT NULL CHECK (environment IN ('live','sandbox')),
        settings jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX workspaces_org ON workspaces (organization_id);

      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations(id),
        workspace_id text REFERENCES workspaces(id),      -- null: every workspace of the org in its environment
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('server','sdk')),
        environment text NOT NULL CHECK (environment IN ('live','test')),
        prefix text NOT NULL,                             -- readable start of the key, for humans
        secret_hash text NOT NULL UNIQUE,                 -- sha256 of the whole key (lookup by hash)
        scopes text[] NOT NULL,
        player_id text,                                   -- sdk keys act for this player only
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX api_keys_org ON api_keys (organization_id);
      CREATE INDEX api_keys_revoked ON api_keys (revoked_at) WHERE revoked_at IS NOT NULL;

      CREATE TABLE signing_keys (
        kid text PRIMARY KEY,
        private_jwk jsonb NOT NULL,
        public_jwk jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE agents (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES workspaces(id),
        name text NOT NULL,
        email text,
        avatar_url text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX agents_ws ON agents (workspace_id, created_at);

      CREATE TABLE players (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES workspaces(id),
        player_id text NOT NULL,
        display_name text,
        email text,
        metadata jsonb NOT NULL DEFAULT '{}',
        first_seen_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        erased_at timestamptz,
        UNIQUE (workspace_id, player_id)
      );

      CREATE TABLE tickets (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES workspaces(id),
        player_ref text REFERENCES players(id),           -- null once the player is erased
        player_id text NOT NULL,                          -- caller's player id (anonymised on erasure)
        title varchar(255) NOT NULL,
        body text NOT NULL,
        status text NOT NULL CHECK (status IN ('open','in_progress','resolved','closed')),
        priority text NOT NULL CHECK (priority IN ('low','medium','high','urgent')),
        priority_rank smallint NOT NULL,                  -- sortBy=priority: urgent highest
        category text,
        source text NOT NULL CHECK (source IN ('api','sdk','discord','steam','email')),
        tags text[] NOT NULL DEFAULT '{}',
        metadata jsonb NOT NULL DEFAULT '{}',
        assignee_id text REFERENCES agents(id),
        ai_triaged boolean NOT NULL DEFAULT false,
        ai_suggested_category text,
        ai_confidence double precision,
        ai_suggested_reply text,
        internal_note text,
        resolution_note text,
        message_count integer NOT NULL DEFAULT 0,
        version integer NOT NULL DEFAULT 1,               -- last lifecycle step applied (idempotent writes)
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        resolved_at timestamptz,
        closed_at timestamptz,
        first_response_at timestamptz,
        search tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')
        ) STORED
      );
      -- list: default sort and the (createdAt, id) cursor
      CREATE INDEX tickets_ws_created ON tickets (workspace_id, created_at DESC, id DESC);
      -- list: sortBy=updatedAt and the updatedSince incremental sync
      CREATE INDEX tickets_ws_updated ON tickets (workspace_id, updated_at DESC, id DESC);
      CREATE INDEX tickets_ws_status ON tickets (workspace_id, status, created_at DESC);
      CREATE INDEX tickets_ws_assignee ON tickets (workspace_id, assignee_id, created_at DESC);
      -- player's tickets and ticketCount
      CREATE INDEX tickets_player ON tickets (player_ref, created_at DESC);
      -- full-text search over title and body
      CREATE INDEX tickets_search ON tickets USING gin (search);

      CREATE TABLE messages (
        id text PRIMARY KEY,
        ticket_id text NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        author_id text NOT NULL,
        author_type text NOT NULL CHECK (author_type IN ('player','agent')),
        body text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX messages_ticket ON messages (ticket_id, created_at);

      CREATE TABLE ticket_audit (
        id bigserial PRIMARY KEY,
        ticket_id text NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        action text NOT NULL,
        actor text,
        note text,
        data jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX ticket_audit_ticket ON ticket_audit (ticket_id, id);

      -- Outbox of domain events, written in the same transaction as the change that
      -- caused them; the webhook issue delivers from here.
      CREATE TABLE events (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        type text NOT NULL,
        subject_id text,
        data jsonb NOT NULL,
        occurred_at timestamptz NOT NULL,
        dedupe_key text NOT NULL UNIQUE
      );
      CREATE INDEX events_ws ON events (workspace_id, occurred_at);
      CREATE INDEX events_subject ON events (subject_id);

      CREATE TABLE ticket_usage (
        organization_id text NOT NULL REFERENCES organizations(id),
        month text NOT NULL,                              -- 'YYYY-MM' (UTC)
        count integer NOT NULL DEFAULT 0,
        PRIMARY KEY (organization_id, month)
      );

      CREATE TABLE idempotency_keys (
        api_key_id text NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        status_code integer,                              -- null while the first request is in flight
        response jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (api_key_id, key)
      );
      CREATE INDEX idempotency_created ON idempotency_keys (created_at);

      CREATE TABLE notifications (
        idempotency_key text PRIMARY KEY,                 -- workflow id + step: sent at most once
        ticket_id text NOT NULL,
        channel text NOT NULL,
        recipient text NOT NULL,
        provider_message_id text,
        sent_at timestamptz NOT NULL DEFAULT now()
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE IF EXISTS notifications, idempotency_keys, ticket_usage, events, ticket_audit,
        messages, tickets, players, agents, signing_keys, api_keys, workspaces, organizations CASCADE;
    `);
  }
}
