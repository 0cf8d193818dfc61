// A platform webhook endpoint made with the webhook domain's command directly (api
// 'platform', the workspace a platform one), for the runs that need one before, or
// without, the platform API's own /platform/v1/webhooks routes. Loopback receivers only.
import type { Db } from '../../db/db';
import { registerEndpoint } from '../../domain/webhooks/register-endpoint';
import { masterKey } from '../../lib/crypto/master-key';

export async function registerPlatformEndpoint(
  db: Db,
  config: { webhookSecretKey?: string },
  input: { workspaceId: string; url: string; events: string[]; description?: string },
): Promise<{ id: string; secret: string }> {
  const { endpoint, secret } = await registerEndpoint(
    db,
    { secretKey: masterKey(config), urlPolicy: { allowLoopback: true } },
    { api: 'platform', environment: 'test', workspaceId: input.workspaceId, url: input.url, events: input.events, description: input.description ?? 'fault run receiver', active: true, maxPerWorkspace: 20 },
  );
  return { id: endpoint.id, secret };
}
