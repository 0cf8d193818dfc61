// The push commands' not_found refusals. Their messages are the API's 404 messages
// (`No <what> with id '<id>'`); the push envelope answers every 404 as RESOURCE_NOT_FOUND.
import { DomainError } from '../errors';

export const appNotFound = (appId: string) => new DomainError('not_found', 'app_not_found', `No app with id '${appId}'`);
export const apiKeyNotFound = (keyId: string) => new DomainError('not_found', 'api_key_not_found', `No API key with id '${keyId}'`);
export const deviceNotFound = (deviceId: string) => new DomainError('not_found', 'device_not_found', `No device with id '${deviceId}'`);
export const eventTriggerNotFound = (id: string) => new DomainError('not_found', 'event_trigger_not_found', `No event trigger with id '${id}'`);
