// The refusals of the webhook commands, with the codes and messages the ticketing API has
// always answered (docs/webhooks.md, "API"): each API's error middleware turns them into
// its envelope (api/kit/error-middleware.ts).
import { DomainError } from '../errors';

export const webhookRefusals = {
  /** an unknown, deleted or invisible endpoint: indistinguishable on purpose */
  webhookNotFound: (id: string) => new DomainError('not_found', 'webhook_not_found', `No webhook endpoint '${id}' in this workspace`),
  deliveryNotFound: (id: string) => new DomainError('not_found', 'delivery_not_found', `No delivery '${id}' in this webhook's log`),
  deliveryInProgress: (id: string) =>
    new DomainError('conflict', 'delivery_in_progress', `Delivery '${id}' is still being sent; redeliver it once it has succeeded or failed`),
  webhookPaused: (id: string) => new DomainError('conflict', 'webhook_paused', `Webhook '${id}' is paused; set active to true to send to it`),
  webhookTestMode: (id: string, deliveryId: string) =>
    new DomainError(
      'conflict',
      'webhook_test_mode',
      `Webhook '${id}' is in test mode: only test events are sent to it, so '${deliveryId}' (a real event) cannot be redelivered; set testMode to false first`,
    ),
  limitReached: (max: number) =>
    new DomainError('conflict', 'webhook_limit_reached', `A workspace can have at most ${max} webhook endpoints; delete one first`, { limit: max }),
  /** the URL policy's reason is the message (a 400 validation_error) */
  urlRefused: (reason: string) => new DomainError('invalid', 'validation_error', reason),
};
