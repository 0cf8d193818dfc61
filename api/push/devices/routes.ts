// Devices (Document 3): register (the SDK's upsert on every launch, API key only), list,
// get, change (API key only) and delete. Every device is reached through its app:
// appFor answers another company's device as 404 and another app's API key as 403.
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { offsetOf, pageOf } from '../../kit/pagination';
import { parse } from '../../kit/validation';
import { deleteDevice, findDevice, listDevices, registerDevice, updateDevice, type DeviceRow } from '../../../db/repositories/push-devices';
import { appFor, appRowFor, pushAuth, type PushPrincipal } from '../auth';
import { presentDevice } from './presenters';
import { DeviceIdParams, ListDevicesQuery, RegisterDeviceBody, UpdateDeviceBody } from './schema';

/** Postgres refused a row whose app is gone (foreign_key_violation). */
export const isForeignKeyViolation = (err: any): boolean => (err?.driverError?.code ?? err?.code) === '23503';

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
    const { device } = await registerDevice(deps.db, {
      id: randomUUID(),
      appId,
      deviceToken: body.deviceToken,
      platform: body.platform,
      userId: body.userId,
      deviceMetadata: body.deviceMetadata,
    }).catch((err) => {
      // the app was deleted between the key lookup and the upsert (its keys went with it)
      if (isForeignKeyViolation(err)) throw errors.noSuch('app', appId);
      throw err;
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
    const device = await deviceFor(ctx, deps, deviceId);
    const body = parse(UpdateDeviceBody, ctx.request.body);
    const updated = await updateDevice(deps.db, device.id, body);
    if (!updated) throw errors.noSuch('device', deviceId);
    ctx.body = presentDevice(updated);
  });

  router.delete('/devices/:deviceId', anyone, async (ctx) => {
    const { deviceId } = parse(DeviceIdParams, ctx.params);
    const device = await deviceFor(ctx, deps, deviceId);
    await deleteDevice(deps.db, device.id);
    ctx.status = 204;
  });

  return router;
}
