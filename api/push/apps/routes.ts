import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { parse } from '../../kit/validation';
import {
  deletePushApp,
  findPushApp,
  insertPushApp,
  listPushApps,
  renamePushApp,
  setPushAppCredentials,
} from '../../../db/repositories/push-apps';
import { CredentialError, parseApnsConfig, parseFcmServiceAccount } from '../../../lib/push/credentials';
import { sealCredentials } from '../../../lib/push/credential-box';
import { listPushApiKeys } from '../../../db/repositories/push-api-keys';
import { appFor, principalOf, pushApiKeys, pushAuth, requireUser } from '../auth';
import { presentApp } from './presenters';
import { ApnsConfigRequest, CreateAppRequest, FcmConfigRequest, UpdateAppRequest } from './schema';

/** A credentials check that failed: a 400 naming the field. */
function invalidCredentials(err: unknown): never {
  if (err instanceof CredentialError) throw errors.validation(err.message, { [err.field]: [err.detail] });
  throw err;
}

/**
 * Apps of the caller's company. Reading takes a user token or the app's own API key;
 * creating, changing and deleting apps and their credentials take a user token.
 */
export function pushAppsRouter(deps: AppDeps): Router {
  const router = new Router();
  const any = pushAuth(deps, { schemes: ['user', 'apiKey'] });

  router.get('/apps', any, async (ctx) => {
    const p = principalOf(ctx);
    const apps = p.kind === 'user' ? await listPushApps(deps.db, p.companyId) : [await findPushApp(deps.db, p.appId)];
    ctx.body = apps.filter((a) => a !== null).map(presentApp);
  });

  router.post('/apps', any, async (ctx) => {
    const user = requireUser(ctx);
    const body = parse(CreateAppRequest, ctx.request.body);
    const id = randomUUID();
    await insertPushApp(deps.db, { id, companyId: user.companyId, ...body });
    ctx.status = 201;
    ctx.body = presentApp((await findPushApp(deps.db, id))!);
  });

  router.get('/apps/:appId', any, async (ctx) => {
    ctx.body = presentApp(await appFor(ctx, deps, ctx.params.appId));
  });

  router.put('/apps/:appId', any, async (ctx) => {
    requireUser(ctx);
    const app = await appFor(ctx, deps, ctx.params.appId);
    const { name } = parse(UpdateAppRequest, ctx.request.body);
    await renamePushApp(deps.db, app.id, name);
    ctx.body = presentApp((await findPushApp(deps.db, app.id))!);
  });

  router.delete('/apps/:appId', any, async (ctx) => {
    requireUser(ctx);
    const app = await appFor(ctx, deps, ctx.params.appId);
    // its keys are refused from the next request on in every process (the key cache's
    // Redis markers); devices, keys, segments, sends and notifications go with it (ON DELETE CASCADE)
    await pushApiKeys(deps).revoke((await listPushApiKeys(deps.db, app.id)).map((k) => k.id));
    await deletePushApp(deps.db, app.id);
    ctx.status = 204;
  });

  router.put('/apps/:appId/fcm-config', any, async (ctx) => {
    requireUser(ctx);
    const app = await appFor(ctx, deps, ctx.params.appId);
    const { serviceAccountJson } = parse(FcmConfigRequest, ctx.request.body);
    try {
      parseFcmServiceAccount(serviceAccountJson);
    } catch (err) {
      invalidCredentials(err);
    }
    await setPushAppCredentials(deps.db, app.id, 'fcm', sealCredentials(deps.config, app.id, 'fcm', { serviceAccountJson }));
    ctx.body = presentApp((await findPushApp(deps.db, app.id))!);
  });

  router.put('/apps/:appId/apns-config', any, async (ctx) => {
    requireUser(ctx);
    const app = await appFor(ctx, deps, ctx.params.appId);
    let config;
    try {
      config = parseApnsConfig(parse(ApnsConfigRequest, ctx.request.body));
    } catch (err) {
      invalidCredentials(err);
    }
    await setPushAppCredentials(deps.db, app.id, 'apns', sealCredentials(deps.config, app.id, 'apns', config));
    ctx.body = presentApp((await findPushApp(deps.db, app.id))!);
  });

  return router;
}
