// The push commands' refusals, one factory each. The not_found messages are the API's 404
// messages (`No <what> with id '<id>'`); the push envelope answers every 404 as
// RESOURCE_NOT_FOUND. Pure: campaign.rules.ts (which workflow code may import) throws them.
import { DomainError } from '../errors';

export const appNotFound = (appId: string) => new DomainError('not_found', 'app_not_found', `No app with id '${appId}'`);
export const apiKeyNotFound = (keyId: string) => new DomainError('not_found', 'api_key_not_found', `No API key with id '${keyId}'`);
export const deviceNotFound = (deviceId: string) => new DomainError('not_found', 'device_not_found', `No device with id '${deviceId}'`);
export const eventTriggerNotFound = (id: string) => new DomainError('not_found', 'event_trigger_not_found', `No event trigger with id '${id}'`);
export const campaignNotFound = (id: string) => new DomainError('not_found', 'campaign_not_found', `No campaign with id '${id}'`);
export const segmentNotFound = (id: string) => new DomainError('not_found', 'segment_not_found', `No segment with id '${id}'`);

/** The Idempotency-Key's lease was taken over by another request before this one committed. */
export const idempotencyRequestInProgress = () =>
  new DomainError('conflict', 'idempotency_request_in_progress', 'A request with this Idempotency-Key is still in progress');

export const campaignFinished = (id: string, status: string) =>
  new DomainError('conflict', 'campaign_finished', `Campaign '${id}' is ${status}; it cannot change any more`, { status });

/** `why` completes the sentence `Campaign '<id>' …`; `status` goes into the details when given. */
export const campaignNotDraft = (id: string, why: string, status?: string) =>
  new DomainError('conflict', 'campaign_not_draft', `Campaign '${id}' ${why}`, status === undefined ? {} : { status });

// A field's refusal carries `details.errors` (field → messages), the one shape the error
// middleware (api/kit/error-middleware.ts, fromDomainError) answers as per-field details.
export const scheduledAtNotInFuture = () => invalidField('scheduled_at_not_in_future', 'scheduledAt', 'scheduledAt must be in the future');
export const scheduledAtTooFar = () => invalidField('scheduled_at_too_far', 'scheduledAt', 'scheduledAt must be at most 366 days ahead');

function invalidField(code: string, field: string, message: string): DomainError {
  return new DomainError('invalid', code, message, { errors: { [field]: [message] } });
}
