import { proxyActivities, sleep } from '@temporalio/workflow';
import type { PlatformTokenActivities, TokenExpiryInput } from './contract';

const { markPlatformTokenExpired } = proxyActivities<PlatformTokenActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * One per token with an expiry (`platform-token-expiry/<tok_id>`): sleeps until the
 * token's expires_at, then marks it expired. Its state table:
 *
 * | state    | accepts | timers                 |
 * |----------|---------|------------------------|
 * | waiting  | nothing | expiry at expires_at   |
 * | expired  | run ends| —                      |
 */
export async function platformTokenExpiryWorkflow(input: TokenExpiryInput): Promise<'expired' | 'gone'> {
  const wait = new Date(input.expiresAt).getTime() - Date.now();
  if (wait > 0) await sleep(wait);
  return (await markPlatformTokenExpired(input.tokenId, input.expiresAt)) ? 'expired' : 'gone';
}
