// Pure: the presenters the tickets resource reuses, and the upsert body schema.
import assert from 'node:assert/strict';
import type { PlayerRow } from '../../domain/players/types';
import { presentPlayer, presentPlayerExpansion } from '../../api/ticketing/players/presenters';
import { UpsertPlayerBody } from '../../api/ticketing/players/schema';

const row = (over: Partial<PlayerRow> = {}): PlayerRow => ({
  id: 'kpl_1',
  workspace_id: 'ws_1',
  player_id: 'plr_1',
  display_name: 'Pat',
  email: 'pat@example.com',
  metadata: {},
  first_seen_at: new Date('2024-01-01T00:00:00Z'),
  last_seen_at: new Date('2024-02-01T00:00:00Z'),
  erased_at: null,
  ...over,
});

describe('presentPlayerExpansion', () => {
  it('reads the extra profile facts from metadata and parses lifetimeSpend', () => {
    const m = { platform: 'steam', steamId: '7656', accountAge: '412', lifetimeSpend: ' 129.5 ', loyaltyTier: 'gold', other: 'x' };
    assert.deepEqual(presentPlayerExpansion(row({ metadata: m })), {
      id: 'kpl_1',
      displayName: 'Pat',
      email: 'pat@example.com',
      platform: 'steam',
      steamId: '7656',
      accountAge: '412',
      lifetimeSpend: 129.5,
      loyaltyTier: 'gold',
    });
  });

  it('uses null for absent or unparseable facts and for an erased or missing player', () => {
    const p = presentPlayerExpansion(row({ metadata: { lifetimeSpend: '$12' } }))!;
    assert.equal(p.lifetimeSpend, null);
    assert.equal(p.platform, null);
    assert.equal(presentPlayerExpansion(row({ metadata: { lifetimeSpend: '' } }))!.lifetimeSpend, null);
    assert.equal(presentPlayerExpansion(row({ metadata: { lifetimeSpend: '0' } }))!.lifetimeSpend, 0);
    assert.equal(presentPlayerExpansion(null), null);
    assert.equal(presentPlayerExpansion(row({ erased_at: new Date() })), null);
  });
});

describe('presentPlayer', () => {
  it('maps a row to the Player object with ISO timestamps', () => {
    assert.deepEqual(presentPlayer(row({ ticket_count: 3 })), {
      id: 'kpl_1',
      playerId: 'plr_1',
      workspaceId: 'ws_1',
      displayName: 'Pat',
      email: 'pat@example.com',
      ticketCount: 3,
      metadata: {},
      firstSeenAt: '2024-01-01T00:00:00.000Z',
      lastSeenAt: '2024-02-01T00:00:00.000Z',
    });
  });
});

describe('UpsertPlayerBody', () => {
  it('allows 50 metadata keys and rejects 51', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
    assert.ok(UpsertPlayerBody.safeParse({ playerId: 'p', metadata: keys(50) }).success);
    assert.ok(!UpsertPlayerBody.safeParse({ playerId: 'p', metadata: keys(51) }).success);
  });
});
