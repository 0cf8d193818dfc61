// Devices (the push spec): register (the SDK's upsert on every launch, API key only), list,
// get, change (API key only) and delete. Every device is reached through its app:
// appFor answers another company's device as 404 and another app's API key as 403.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { offsetOf, pageOf } from '../../kit/pagination';
import { parse } from '../../kit/validation';
import { findDevice, listDevices } from '../../../db/repositories/push-devices';
import type { DeviceRow } from '../../../domain/push/types';
import { deleteDevice } from '../../../domain/push/delete-device';
import { registerDevice } from '../../../domain/push/register-device';
import { updateDevice } from '../../../domain/push/update-device';
import { appFor, appRowFor, pushAuth, type PushPrincipal } from '../auth';
import { presentDevice } from './presenters';
import { DeviceIdParams, ListDevicesQuery, RegisterDeviceBody, UpdateDeviceBody } from './schema';

/** The device if the principal may use its app (404 for anything it may not see). */
const deviceFor = (ctx: Context, deps: AppDeps, id: string): Promise<DeviceRow> => appRowFor(ctx, deps, 'device', id, (i) => findDevice(deps.db, i));

export function pushDevicesRouter(deps: AppDeps): Router {
  const router = new Router();
  const anyone = pushAuth(deps, { schemes: ['user', 'apiKey'] });
  const apiKeyOnly = pushAuth(deps, { schemes: ['apiKey'] });

  router.post('/devices/register', pushAuth(deps, { schemes: ['apiKey'], limit: 'push-devices-register' }), async (ctx) => {
    const body = parse(RegisterDeviceBody, ctx.request.body);
    const principal = ctx.state.principal as Extract<PushPrincipal, { kind: 'apiKey' }>;
    // The key's own app needs no lookup (the key row exists only while its app does): the
    // hot path is the key lookup and the upsert. Any other appId goes through appFor.
    const appId = body.appId === undefined || body.appId === principal.appId ? principal.appId : (await appFor(ctx, deps, body.appId)).id;
    // app_not_found: the app was deleted between the key lookup and the upsert
    const { device } = await registerDevice(deps.db, {
      appId,
      deviceToken: body.deviceToken,
      platform: body.platform,
      userId: body.userId,
      deviceMetadata: body.deviceMetadata,
    });
    ctx.body = presentDevice(device);
  });

  router.get('/devices', anyone, async (ctx) => {
    const q = parse(ListDevicesQuery, ctx.query);
    const app = await appFor(ctx, deps, q.appId);
    const { items, total } = await listDevices(deps.db, {
      appId: app.id,
      platform: q.platform,
      userId: q.userId,
      offset: offsetOf(q),
      limit: q.pageSize,
    });
    ctx.body = pageOf(items.map(presentDevice), total, q);
  });

  router.get('/devices/:deviceId', anyone, async (ctx) => {
    const { deviceId } = parse(DeviceIdParams, ctx.params);
    ctx.body = presentDevice(await deviceFor(ctx, deps, deviceId));
  });

  router.put('/devices/:deviceId', apiKeyOnly, async (ctx) => {
    const { deviceId } = parse(DeviceIdParams, ctx.params);
    await deviceFor(ctx, deps, deviceId); // the access check
    const body = parse(UpdateDeviceBody, ctx.request.body);
    // device_not_found, with the id as the path named it, when it was deleted meanwhile
    ctx.body = presentDevice(await updateDevice(deps.db, deviceId, body));
  });

  router.delete('/devices/:deviceId', anyone, async (ctx) => {
    const { deviceId } = parse(DeviceIdParams, ctx.params);
    const device = await deviceFor(ctx, deps, deviceId);
    await deleteDevice(deps.db, device.id);
    ctx.status = 204;
  });

  return router;
}
