// A chain with no provider that sends and logs nothing: for workers and tests that must
// not send email (sendAccepted answers null for it: the caller goes on without email).
import type { EmailChain } from './types';

export const NO_EMAIL: EmailChain = Object.freeze({
  providers: Object.freeze(['log'] as const),
  send: async () => ({ delivered: false, provider: 'log' as const, messageId: null, errors: [] }),
});
