// The trial onboarding commands' refusals, one factory each (docs/trial-onboarding.md).
import { DomainError } from '../errors';

export const trialRequestNotFound = (id: string) => new DomainError('not_found', 'trial_request_not_found', `Trial request '${id}' not found`);

export const trialRequestDecided = (r: { id: string; status: string }) =>
  new DomainError('conflict', 'trial_request_decided', `Trial request '${r.id}' is ${r.status} already`, { status: r.status });

/** `why` completes the sentence `Trial request '<id>' …` (its status, or that it has no company). */
export const trialRequestNotApproved = (id: string, why: string) => new DomainError('conflict', 'trial_request_not_approved', `Trial request '${id}' ${why}`);

/** The approval's owner email belongs to an account already (the unique index said so). */
export const trialEmailTaken = (email: string) =>
  new DomainError('conflict', 'email_taken', `An account with the email '${email}' exists already; it cannot own a new trial`);

export const passwordAlreadySet = () => new DomainError('conflict', 'password_already_set', 'The owner has set a password already; they can log in');

const INVALID_SETUP_TOKEN = 'The setup link is invalid, expired, already used or replaced by a newer one';
export const invalidSetupToken = () => new DomainError('invalid', 'setup_token_invalid', INVALID_SETUP_TOKEN, { errors: { token: [INVALID_SETUP_TOKEN] } });
