// What callers know about a platform token's expiry timer (docs/platform.md, "Tokens"):
// one workflow per token that has an expiry, started from the workflow-start outbox with
// the token's row. The request path refuses the token at its exact expiry by itself; the
// timer marks the row expired, so lists say so.
import type { WorkflowStartEntry } from '../start-entry';

export const PLATFORM_QUEUE = 'platform';
export const PLATFORM_TOKEN_EXPIRY_WORKFLOW_TYPE = 'platformTokenExpiryWorkflow';
export const platformTokenExpiryWorkflowId = (tokenId: string) => `platform-token-expiry/${tokenId}`;

export interface TokenExpiryInput {
  tokenId: string;
  /** ISO */
  expiresAt: string;
}

export interface PlatformTokenActivities {
  /** Sets the token's expired_at (once); false when the token is gone. */
  markPlatformTokenExpired(tokenId: string, at: string): Promise<boolean>;
}

export function platformTokenExpiryStart(input: TokenExpiryInput): WorkflowStartEntry<TokenExpiryInput> {
  return {
    workflowId: platformTokenExpiryWorkflowId(input.tokenId),
    workflowType: PLATFORM_TOKEN_EXPIRY_WORKFLOW_TYPE,
    taskQueue: PLATFORM_QUEUE,
    args: [input],
  };
}
