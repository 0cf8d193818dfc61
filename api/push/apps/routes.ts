import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { parse } from '../../kit/validation';
import { findPushApp, listPushApps } from '../../../db/repositories/push-apps';
import { createApp } from '../../../domain/push/create-app';
import { renameApp, setAppCredentials } from '../../../domain/push/update-app';
import { CredentialError, parseApnsConfig, parseFcmServiceAccount } from '../../../lib/push/credentials';
import { appFor, principalOf, pushAuth, requireUser } from '../auth';
import { deleteAppAndCampaigns } from './gateway';
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
    const app = await createApp(deps.db, { companyId: user.companyId, ...body });
    ctx.status = 201;
    ctx.body = presentApp(app);
  });

  router.get('/apps/:appId', any, async (ctx) => {
    ctx.body = presentApp(await appFor(ctx, deps, ctx.params.appId));
  });

  router.put('/apps/:appId', any, async (ctx) => {
    requireUser(ctx);
    const app = await appFor(ctx, deps, ctx.params.appId);
    const { name } = parse(UpdateAppRequest, ctx.request.body);
    ctx.body = presentApp(await renameApp(deps.db, app.id, name));
  });

  router.delete('/apps/:appId', any, async (ctx) => {
    requireUser(ctx);
    const app = await appFor(ctx, deps, ctx.params.appId);
    // its keys are refused from the next request on in every process (the key cache's
    // Redis markers); devices, keys, segments, campaigns, sends and notifications go with it
    // (ON DELETE CASCADE); its campaigns' workflows are cancelled
    await deleteAppAndCampaigns(deps, app.id);
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
    ctx.body = presentApp(await setAppCredentials(deps.db, deps.config, app.id, { kind: 'fcm', value: { serviceAccountJson } }));
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
    ctx.body = presentApp(await setAppCredentials(deps.db, deps.config, app.id, { kind: 'apns', value: config }));
  });

  return router;
}
