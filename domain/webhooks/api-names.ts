// The webhook APIs by name: which API an endpoint belongs to and which API an event is
// for (the `api` column of webhook_endpoints and events, migration WebhookApis). Pure, so
// db/ and workflow code may import it; what each API's deliveries look like is in apis.ts.

/** Every webhook API; each has its row in apis.ts. */
export const WEBHOOK_API_NAMES = ['ticketing', 'platform'] as const;
export type WebhookApiName = (typeof WEBHOOK_API_NAMES)[number];

/** The API of rows written before endpoints and events named one (the columns' default). */
export const DEFAULT_WEBHOOK_API: WebhookApiName = 'ticketing';

export const isWebhookApiName = (name: unknown): name is WebhookApiName =>
  typeof name === 'string' && (WEBHOOK_API_NAMES as readonly string[]).includes(name);
