// What differs between the webhook APIs, as data: one row per API, read by the engine
// (the outbox claim, the dispatcher, the delivery and pause activities, redelivery and the
// test sender) through the API an endpoint or event names. Nothing else in webhook code
// branches on the API. How the platform API plugs in: docs/webhooks.md, "Webhook APIs".
import type { Executor } from '../../db/db';
import { agentEmails } from '../../db/repositories/agents';
import { platformWorkspaceAdminEmails } from '../../db/repositories/platform-tickets';
import type { SignatureScheme } from '../../lib/webhooks/signing';
import type { WebhookApiName } from './api-names';
import { envelope as ticketingEnvelope, type Envelope } from './envelope';
import { platformEnvelope } from './platform-envelope';
import { PLATFORM_RETRY_SCHEDULE, TICKETING_RETRY_SCHEDULE } from './retry-schedules';
import type { RetrySchedule } from './types';

export { DEFAULT_WEBHOOK_API, WEBHOOK_API_NAMES, isWebhookApiName, type WebhookApiName } from './api-names';

/** Who is emailed when one of the API's endpoints is paused after its schedule ran out. */
export type PauseRecipients = (executor: Executor, workspaceId: string) => Promise<string[]>;

export interface WebhookApi {
  readonly name: WebhookApiName;
  /**
   * The schedule of its deliveries (event deliveries and redeliveries). Its `onExhausted`
   * is the API's rule after the last failed attempt: absent (the delivery is failed) or
   * 'pause-endpoint' (the endpoint is paused and `pauseRecipients` are emailed). It travels
   * in the workflow input: the workflow holds no schedule of its own.
   */
  readonly schedule: RetrySchedule;
  /** the body of each delivery (stored with the row, sent unchanged on every attempt) */
  readonly envelope: Envelope;
  /** which signature headers each attempt carries (lib/webhooks/signing.ts, deliveryHeaders) */
  readonly signatures: readonly SignatureScheme[];
  /** the pause email's recipients; asked only when a delivery of its endpoints pauses one */
  readonly pauseRecipients: PauseRecipients;
}

/** One row per API, each under its own name. */
export type WebhookApis = { readonly [N in WebhookApiName]: WebhookApi & { readonly name: N } };

/** The ticketing spec (`/v1`): its schedule, envelope and both signature schemes; a failed delivery stays failed. */
const TICKETING: WebhookApi & { name: 'ticketing' } = Object.freeze({
  name: 'ticketing',
  schedule: TICKETING_RETRY_SCHEDULE,
  envelope: ticketingEnvelope,
  signatures: Object.freeze(['service-signature', 'standard-webhooks'] as const),
  // the workspace's agents that have an email address: the people who run its desk
  pauseRecipients: agentEmails,
});

/**
 * The platform spec (`/platform/v1`): its schedule (then the endpoint is paused), its
 * snake_case envelope, `X-Service-Signature` (hex HMAC-SHA256 of the body) plus the
 * Standard Webhooks headers (receivers may verify either: docs/webhooks.md); the pause email goes
 * to the workspace's admins. Its endpoints: api/platform/webhooks.
 */
const PLATFORM: WebhookApi & { name: 'platform' } = Object.freeze({
  name: 'platform',
  schedule: PLATFORM_RETRY_SCHEDULE,
  envelope: platformEnvelope,
  signatures: Object.freeze(['service-signature', 'standard-webhooks'] as const),
  pauseRecipients: platformWorkspaceAdminEmails,
});

export const WEBHOOK_APIS: WebhookApis = Object.freeze({ ticketing: TICKETING, platform: PLATFORM });

/**
 * The row of the API an endpoint or event names, from `apis` (the engine's callers take
 * the table as a dependency, default WEBHOOK_APIS). A name no row has is a programming
 * error (the columns only get names of WEBHOOK_API_NAMES), so it throws.
 */
export function webhookApi(name: string, apis: WebhookApis = WEBHOOK_APIS): WebhookApi {
  const api: WebhookApi | undefined = Object.prototype.hasOwnProperty.call(apis, name) ? (apis as Record<string, WebhookApi>)[name] : undefined;
  if (!api) throw new Error(`unknown webhook API '${name}'`);
  return api;
}
