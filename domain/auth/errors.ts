// The auth commands' refusals, one factory each.
import { DomainError } from '../errors';

/** A ticketing API key outside the caller's organization or unknown. */
export const apiKeyNotFound = (keyId: string) => new DomainError('not_found', 'api_key_not_found', `No API key '${keyId}' in this organization`);

export const forbidden = (message: string) => new DomainError('forbidden', 'forbidden', message);

/** A key's environment does not match its workspace's (the message names both). */
export const keyEnvironmentMismatch = (environment: string, ws: { id: string; environment: string }) =>
  new DomainError('invalid', 'validation_error', `environment: a ${environment} key cannot be bound to the ${ws.environment} workspace '${ws.id}'`);

/** A push account registration with an email that has an account already. */
export const emailTaken = () => new DomainError('conflict', 'email_taken', 'An account with this email exists already');
