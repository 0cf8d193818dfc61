// Registering a webhook endpoint: its URL through the URL policy, the per-workspace limit,
// and a new signing secret, sealed with the secret box bound to the endpoint's id (a
// ciphertext copied onto another endpoint does not decrypt). The secret is answered once.
import type { Db } from '../../db/db';
import { insertEndpoint, type EndpointRecord } from '../../db/repositories/webhook-endpoints';
import { encryptSecret } from '../../lib/crypto/secret-box';
import { newId } from '../../lib/ids';
import { newEndpointSecret } from '../../lib/webhooks/signing';
import type { WebhookApiName } from './api-names';
import { acceptedEndpointUrl, type UrlPolicyOptions } from './endpoint-url';
import { webhookRefusals } from './errors';

export interface EndpointDeps {
  /** the master key (lib/crypto/master-key.ts) that seals endpoint secrets */
  secretKey: Buffer;
  /** loopback allowed (tests) and the resolver the URL policy uses */
  urlPolicy: UrlPolicyOptions;
}

export interface NewEndpointInput {
  api: WebhookApiName;
  /** an API with environments (the platform's): the one whose events it receives */
  environment?: 'live' | 'test';
  workspaceId: string;
  url: string;
  events: string[];
  description: string;
  active: boolean;
  /** test mode (ticketing only; docs/webhooks.md, "Test mode"): real events withheld; default off */
  testMode?: boolean;
  /** live endpoints a workspace may have (paused ones count, deleted ones do not) */
  maxPerWorkspace: number;
}

/** The stored endpoint and its secret in the clear (shown only in the create's answer). */
export async function registerEndpoint(
  db: Pick<Db, 'transaction'>,
  deps: EndpointDeps,
  input: NewEndpointInput,
): Promise<{ endpoint: EndpointRecord; secret: string }> {
  const url = await acceptedEndpointUrl(input.url, deps.urlPolicy);
  const id = newId('wh');
  const secret = newEndpointSecret();
  const { maxPerWorkspace, ...fields } = input;
  const endpoint = await insertEndpoint(db, { ...fields, id, url, secretBox: encryptSecret(deps.secretKey, secret, id) }, maxPerWorkspace);
  if (!endpoint) throw webhookRefusals.limitReached(maxPerWorkspace);
  return { endpoint, secret };
}
