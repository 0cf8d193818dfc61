import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { carriesSecret } from '../../kit/headers';
import { isUuid } from '../../kit/uuid';
import { parse } from '../../kit/validation';
import { listPushApiKeys } from '../../../db/repositories/push-api-keys';
import { createApiKey } from '../../../domain/push/create-api-key';
import { revokeApiKey } from '../../../domain/push/revoke-api-key';
import { appFor, pushApiKeys, pushAuth, requireUser } from '../auth';
import { presentApiKey } from './presenters';
import { CreateApiKeyRequest, ListApiKeysQuery } from './schema';

/** An app's API keys, managed by its company's users (an API key gets 403 here). */
export function pushApiKeysRouter(deps: AppDeps): Router {
  const router = new Router();
  const auth = pushAuth(deps, { schemes: ['user', 'apiKey'] });

  router.post('/api-keys', auth, async (ctx) => {
    requireUser(ctx);
    const body = parse(CreateApiKeyRequest, ctx.request.body);
    const app = await appFor(ctx, deps, body.appId);
    const { row, key } = await createApiKey(deps.db, app.id, body.name);
    ctx.status = 201;
    ctx.body = { ...presentApiKey(row), key };
    carriesSecret(ctx);
  });

  router.get('/api-keys', auth, async (ctx) => {
    requireUser(ctx);
    const { appId } = parse(ListApiKeysQuery, ctx.query);
    const app = await appFor(ctx, deps, appId);
    // the uses this process has answered show in lastUsedAt
    await pushApiKeys(deps).pendingTouches();
    ctx.body = (await listPushApiKeys(deps.db, app.id)).map(presentApiKey);
  });

  router.delete('/api-keys/:keyId', auth, async (ctx) => {
    const user = requireUser(ctx);
    const id = ctx.params.keyId;
    if (!isUuid(id)) throw errors.noSuch('API key', id);
    // the Redis marker before the row: every process refuses the key from the next
    // request on, whatever its key cache holds (api/push/auth/api-key-cache.ts)
    await revokeApiKey(deps.db, user.companyId, id, (keyIds) => pushApiKeys(deps).revoke(keyIds));
    ctx.status = 204;
  });

  return router;
}
