// An endpoint's URL as registration and every change of it accept it: HTTPS to a public
// host (lib/webhooks/url-policy.ts), normalised; the policy's reason is the refusal.
import { checkWebhookUrl, type UrlPolicyOptions } from '../../lib/webhooks/url-policy';
import { webhookRefusals } from './errors';

export type { UrlPolicyOptions };

/** The normalised URL; throws a 400 validation_error with the policy's reason. */
export async function acceptedEndpointUrl(url: string, policy: UrlPolicyOptions): Promise<string> {
  const check = await checkWebhookUrl(url, policy);
  if (!check.ok) throw webhookRefusals.urlRefused(check.reason);
  return check.url;
}
