// The platform spec's webhook event types, exactly ("Events"). Every one is recorded in
// the events outbox with api 'platform' (db/repositories/events.ts), so it reaches only
// platform endpoints subscribed to it. Payloads: docs/platform.md, "Webhooks".
export const PLATFORM_EVENT_TYPES = [
  'ticket.created',
  'ticket.updated',
  'ticket.resolved',
  'ticket.closed',
  'ticket.sla_breached',
  'automation.fired',
  'risk_signal.triggered',
] as const;

export type PlatformEventType = (typeof PLATFORM_EVENT_TYPES)[number];

export const isPlatformEventType = (type: unknown): type is PlatformEventType =>
  typeof type === 'string' && (PLATFORM_EVENT_TYPES as readonly string[]).includes(type);
