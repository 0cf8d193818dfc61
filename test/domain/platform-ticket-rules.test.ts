// The platform ticket's transition table (domain/platform/ticket.rules.ts), every pair of
// statuses, and what each state takes: the API and the workflow's validators apply the
// same function, so this is the table both answer by.
import assert from 'node:assert/strict';
import { canMove, checkPlatformTicketChange, PLATFORM_TICKET_TRANSITIONS, unassignApplies } from '../../domain/platform/ticket.rules';
import { PLATFORM_TICKET_STATUSES, type PlatformTicketStatus } from '../../domain/platform/types';

const DAY = 86_400_000;
/** The documented table (docs/platform.md, "Tickets"): from → the statuses it may move to (itself aside). */
const TABLE: Record<PlatformTicketStatus, PlatformTicketStatus[]> = {
  open: ['pending', 'resolved', 'closed'],
  pending: ['open', 'resolved', 'closed'],
  resolved: ['open', 'closed'],
  closed: [],
};

describe('the platform ticket transition table', () => {
  it('is the documented one', () => {
    assert.deepEqual(PLATFORM_TICKET_TRANSITIONS, TABLE);
  });

  for (const from of PLATFORM_TICKET_STATUSES) {
    for (const to of PLATFORM_TICKET_STATUSES) {
      const allowed = from !== 'closed' && (from === to || TABLE[from].includes(to));
      it(`${from} → ${to}: ${allowed ? 'taken' : '409 conflict'}`, () => {
        assert.equal(canMove(from, to), allowed);
        const r = checkPlatformTicketChange('tkt_1', { status: from, purgeAt: null, deleted: false }, 'patch', 0, to);
        if (allowed) assert.equal(r, null);
        else {
          assert.equal(r?.kind, 'conflict');
          assert.equal(r?.code, 'conflict');
        }
      });
    }
  }
});

describe('what each state takes', () => {
  const live = (status: PlatformTicketStatus) => ({ status, purgeAt: null, deleted: false });
  it('a closed ticket takes deletion only: patch (any field) and reply are 409, restore 409 (not deleted)', () => {
    assert.equal(checkPlatformTicketChange('tkt_1', live('closed'), 'patch', 0)?.code, 'conflict');
    assert.equal(checkPlatformTicketChange('tkt_1', live('closed'), 'reply', 0)?.code, 'conflict');
    assert.equal(checkPlatformTicketChange('tkt_1', live('closed'), 'delete', 0), null);
    assert.equal(checkPlatformTicketChange('tkt_1', live('closed'), 'restore', 0)?.code, 'conflict');
  });

  it('open, pending and resolved take replies and deletion', () => {
    for (const s of ['open', 'pending', 'resolved'] as const) {
      assert.equal(checkPlatformTicketChange('tkt_1', live(s), 'reply', 0), null);
      assert.equal(checkPlatformTicketChange('tkt_1', live(s), 'delete', 0), null);
    }
  });

  it('a soft-deleted ticket is a 404 to everything but restore, which is taken until purge_at and 410 gone from it', () => {
    const purgeAt = 30 * DAY;
    const deleted = { status: 'open' as const, purgeAt, deleted: true };
    for (const kind of ['patch', 'reply', 'delete'] as const) assert.equal(checkPlatformTicketChange('tkt_1', deleted, kind, 0)?.kind, 'not_found');
    assert.equal(checkPlatformTicketChange('tkt_1', deleted, 'restore', purgeAt - 3_600_000), null, '29 d 23 h');
    assert.equal(checkPlatformTicketChange('tkt_1', deleted, 'restore', purgeAt - 1), null);
    assert.equal(checkPlatformTicketChange('tkt_1', deleted, 'restore', purgeAt)?.kind, 'gone', '30 d');
  });

  it("a deactivated user's unassignment applies to their open and pending tickets only", () => {
    assert.equal(unassignApplies({ status: 'open', assigneeId: 'usr_1' }, 'usr_1'), true);
    assert.equal(unassignApplies({ status: 'pending', assigneeId: 'usr_1' }, 'usr_1'), true);
    assert.equal(unassignApplies({ status: 'resolved', assigneeId: 'usr_1' }, 'usr_1'), false);
    assert.equal(unassignApplies({ status: 'closed', assigneeId: 'usr_1' }, 'usr_1'), false);
    assert.equal(unassignApplies({ status: 'open', assigneeId: 'usr_2' }, 'usr_1'), false);
    assert.equal(unassignApplies({ status: 'open', assigneeId: null }, 'usr_1'), false);
  });
});
