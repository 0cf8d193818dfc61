// Sample `data` for the test-event sender: the same shapes real events carry
// (domain/tickets/events.ts, domain/players/events.ts, domain/tickets/apply-change.ts), with ids that say
// `_test_` so no receiver mistakes them for real objects or finds them in the API.
import { randomBytes } from 'node:crypto';
import { ID_ALPHABET } from '../../../lib/ids';
import type { WebhookEventType } from './schema';

const testId = (prefix: string) => `${prefix}_test_${[...randomBytes(16)].map((b) => ID_ALPHABET[b & 31]).join('')}`;

function sampleTicket(type: WebhookEventType, workspaceId: string, now: string) {
  const status = { 'ticket.assigned': 'in_progress', 'ticket.resolved': 'resolved', 'ticket.closed': 'closed' }[type as string] ?? 'open';
  return {
    id: testId('tkt'),
    workspaceId,
    playerId: testId('plr'),
    title: 'Test event: cannot log in after the latest patch',
    body: 'This is a sample ticket sent by the webhook test sender. It does not exist in the API.',
    status,
    priority: 'high',
    category: 'account',
    source: 'api',
    tags: ['test'],
    metadata: { platform: 'steam', gameVersion: '1.4.2' },
    assigneeId: status === 'open' ? null : testId('agt'),
    aiTriaged: true,
    aiSuggestedCategory: 'account',
    aiConfidence: 0.92,
    messageCount: status === 'open' ? 0 : 2,
    createdAt: now,
    updatedAt: now,
    resolvedAt: status === 'resolved' || status === 'closed' ? now : null,
    closedAt: status === 'closed' ? now : null,
  };
}

/** The `data` object of a sample `type` event in `workspaceId`, as of `now`. */
export function sampleEventData(type: WebhookEventType, workspaceId: string, now: Date): Record<string, unknown> {
  const at = now.toISOString();
  switch (type) {
    case 'message.created':
      return {
        id: testId('msg'),
        ticketId: testId('tkt'),
        authorId: testId('plr'),
        authorType: 'player',
        body: 'Test event: still cannot log in, error code 1042.',
        createdAt: at,
      };
    case 'player.created':
      return {
        id: testId('kpl'),
        playerId: testId('plr'),
        workspaceId,
        displayName: 'Test Player',
        email: 'test.player@example.com',
        ticketCount: 0,
        metadata: { platform: 'steam' },
        firstSeenAt: at,
        lastSeenAt: at,
      };
    case 'sla.breached':
      return { ticketId: testId('tkt'), policy: 'first_response', breachedAt: at };
    default:
      return sampleTicket(type, workspaceId, at);
  }
}
