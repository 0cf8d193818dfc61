// The platform automations' pure rules (domain/platform/automation.rules.ts): the shape
// checks beyond the JSON schema, every operator over the ticket's fields, and which actions
// would still change a ticket.
import assert from 'node:assert/strict';
import { DomainError } from '../../domain/errors';
import {
  applicableActions,
  automationRuleErrors,
  checkAutomationRule,
  conditionHolds,
  conditionsHold,
  MAX_TICKET_TAGS,
  reachesAutomation,
  type AutomationAction,
  type AutomationCondition,
  type MatchableTicket,
} from '../../domain/platform/automation.rules';

const ticket: MatchableTicket = {
  status: 'open',
  priority: 'normal',
  channelId: 'ch_email',
  assigneeId: null,
  tags: ['vip', 'pc'],
  subject: 'Refund for my Order',
  body: 'I was charged twice',
  contactEmail: 'Player@Example.com',
};
const holds = (c: Partial<AutomationCondition> & Pick<AutomationCondition, 'field' | 'operator'>) => conditionHolds(ticket, { value: null, ...c } as AutomationCondition);

describe('automationRuleErrors and checkAutomationRule', () => {
  it('accepts every documented field and operator pair with a value of the right kind', () => {
    const ok: AutomationCondition[] = [
      { field: 'status', operator: 'equals', value: 'open' },
      { field: 'status', operator: 'in', value: ['open', 'pending'] },
      { field: 'priority', operator: 'not_equals', value: 'low' },
      { field: 'channel_id', operator: 'in', value: ['ch_1'] },
      { field: 'assignee_id', operator: 'equals', value: null },
      { field: 'assignee_id', operator: 'in', value: [null, 'usr_1'] },
      { field: 'tags', operator: 'contains', value: 'vip' },
      { field: 'tags', operator: 'not_contains', value: 'vip' },
      { field: 'tags', operator: 'in', value: ['a', 'b'] },
      { field: 'subject', operator: 'contains', value: 'refund' },
      { field: 'body', operator: 'not_contains', value: 'spam' },
      { field: 'contact_email', operator: 'in', value: ['a@b.c'] },
      { field: 'contact_email', operator: 'contains', value: '@example.com' },
    ];
    assert.deepEqual(automationRuleErrors({ conditions: ok, actions: [{ type: 'add_tag', value: 'a' }, { type: 'add_tag', value: 'b' }] }), {});
  });

  it('refuses, naming the field: an operator the field does not take, a bad value, a list outside in, duplicate single actions', () => {
    const errors = automationRuleErrors({
      conditions: [
        { field: 'status', operator: 'contains', value: 'open' },
        { field: 'status', operator: 'equals', value: 'archived' },
        { field: 'priority', operator: 'in', value: [] },
        { field: 'subject', operator: 'in', value: ['x'] },
        { field: 'subject', operator: 'equals', value: ['x'] },
        { field: 'tags', operator: 'contains', value: null },
        { field: 'body', operator: 'contains', value: '   ' },
        { field: 'priority', operator: 'equals', value: null },
        { field: 'priority', operator: 'in', value: 'high' },
      ],
      actions: [
        { type: 'set_priority', value: 'high' },
        { type: 'set_priority', value: 'low' },
      ],
    });
    assert.deepEqual(Object.keys(errors).sort(), [
      'actions.1.type',
      'conditions.0.operator',
      'conditions.1.value',
      'conditions.2.value',
      'conditions.3.operator',
      'conditions.4.value',
      'conditions.5.value',
      'conditions.6.value',
      'conditions.7.value',
      'conditions.8.value',
    ]);
    assert.throws(
      () => checkAutomationRule({ conditions: [{ field: 'status', operator: 'equals', value: 'archived' }] }),
      (err: unknown) => err instanceof DomainError && err.code === 'validation_failed' && JSON.stringify(err.details).includes('conditions.0.value'),
    );
  });
});

describe('conditionHolds', () => {
  it('equals and not_equals: exact for statuses and ids, letter case ignored for text', () => {
    assert.equal(holds({ field: 'status', operator: 'equals', value: 'open' }), true);
    assert.equal(holds({ field: 'status', operator: 'not_equals', value: 'open' }), false);
    assert.equal(holds({ field: 'assignee_id', operator: 'equals', value: null }), true, 'null: unassigned');
    assert.equal(holds({ field: 'assignee_id', operator: 'not_equals', value: null }), false);
    assert.equal(holds({ field: 'contact_email', operator: 'equals', value: 'player@example.com' }), true);
    assert.equal(holds({ field: 'channel_id', operator: 'equals', value: 'CH_EMAIL' }), false);
  });

  it('in: one of the list (assignee_id may list null); tags: carries any of them', () => {
    assert.equal(holds({ field: 'priority', operator: 'in', value: ['high', 'normal'] }), true);
    assert.equal(holds({ field: 'priority', operator: 'in', value: ['high'] }), false);
    assert.equal(holds({ field: 'assignee_id', operator: 'in', value: [null] }), true);
    assert.equal(holds({ field: 'tags', operator: 'in', value: ['x', 'pc'] }), true);
    assert.equal(holds({ field: 'tags', operator: 'in', value: ['x'] }), false);
  });

  it('contains and not_contains: a substring of text (any case), a tag of the list (exact)', () => {
    assert.equal(holds({ field: 'subject', operator: 'contains', value: 'REFUND' }), true);
    assert.equal(holds({ field: 'body', operator: 'not_contains', value: 'twice' }), false);
    assert.equal(holds({ field: 'contact_email', operator: 'contains', value: '@example.com' }), true);
    assert.equal(holds({ field: 'tags', operator: 'contains', value: 'vip' }), true);
    assert.equal(holds({ field: 'tags', operator: 'contains', value: 'VIP' }), false);
    assert.equal(holds({ field: 'tags', operator: 'not_contains', value: 'vip' }), false);
  });

  it('all conditions must hold; an empty list always matches', () => {
    assert.equal(conditionsHold(ticket, []), true);
    const a: AutomationCondition = { field: 'status', operator: 'equals', value: 'open' };
    const b: AutomationCondition = { field: 'priority', operator: 'equals', value: 'high' };
    assert.equal(conditionsHold(ticket, [a]), true);
    assert.equal(conditionsHold(ticket, [a, b]), false);
  });
});

describe('applicableActions', () => {
  const active = (id: string) => id === 'usr_active';
  const run = (actions: AutomationAction[], t: Partial<MatchableTicket> = {}) => applicableActions({ ...ticket, ...t }, actions, active);

  it('applies what changes the ticket, in order, as one change', () => {
    const r = run([
      { type: 'set_priority', value: 'critical' },
      { type: 'assign', user_id: 'usr_active' },
      { type: 'add_tag', value: 'refund' },
      { type: 'set_status', value: 'pending' },
    ]);
    assert.equal(r.applied.length, 4);
    assert.deepEqual(r.change, { priority: 'critical', assigneeId: 'usr_active', tags: ['vip', 'pc', 'refund'], status: 'pending' });
  });

  it('skips what would change nothing or no longer applies', () => {
    const r = run([
      { type: 'set_priority', value: 'normal' }, // the priority it has
      { type: 'assign', user_id: 'usr_gone' }, // not an active worker any more
      { type: 'add_tag', value: 'vip' }, // carried already
      { type: 'set_status', value: 'open' }, // the status it has
    ]);
    assert.deepEqual(r, { applied: [], change: {} });
    assert.deepEqual(run([{ type: 'set_status', value: 'pending' }], { status: 'resolved' }).applied, [], 'resolved → pending: the table refuses');
    assert.deepEqual(run([{ type: 'assign', user_id: null }], { assigneeId: 'usr_x' }).change, { assigneeId: null }, 'null unassigns');
    const full = Array.from({ length: MAX_TICKET_TAGS }, (_, i) => `t${i}`);
    assert.deepEqual(run([{ type: 'add_tag', value: 'one-more' }], { tags: full }).applied, [], 'at the tag limit');
  });

  it('nothing applies to a closed ticket', () => {
    assert.deepEqual(run([{ type: 'set_priority', value: 'high' }], { status: 'closed' }).applied, []);
  });
});

test('reachesAutomation: its environment and a workspace in reach', () => {
  const caller = { organizationId: 'org_1', workspaceId: 'ws_1', userId: 'usr_1', role: 'manager' as const, isOrgAdmin: false, environment: 'test' as const };
  const rule = { organizationId: 'org_1', workspaceId: 'ws_1', environment: 'test' as const };
  assert.equal(reachesAutomation(caller, rule), true);
  assert.equal(reachesAutomation(caller, { ...rule, environment: 'live' }), false);
  assert.equal(reachesAutomation(caller, { ...rule, workspaceId: 'ws_2' }), false);
  assert.equal(reachesAutomation({ ...caller, isOrgAdmin: true }, { ...rule, workspaceId: 'ws_2' }), true);
  assert.equal(reachesAutomation({ ...caller, isOrgAdmin: true }, { ...rule, organizationId: 'org_2' }), false);
});
