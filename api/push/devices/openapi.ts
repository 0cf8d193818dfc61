// OpenAPI paths of the devices resource (registered when routes.ts imports this file).
import { json, jsonBody } from '../../kit/openapi';
import { MAX_PAGE_SIZE } from '../../kit/pagination';
import { API_KEY_ONLY, USER_OR_API_KEY, errorResponses, registry } from '../openapi';
import { DeviceIdParams, DevicePage, DeviceResponse, ListDevicesQuery, RegisterDeviceBody, UpdateDeviceBody } from './schema';

const ApiKeyOnly = 'Auth: API key (`Authorization: ApiKey <key>`) only';

registry.registerPath({
  method: 'post',
  path: '/api/v1/devices/register',
  summary: 'Register a device (upsert by app + device token; call it on every launch)',
  description:
    `${ApiKeyOnly}. A known token keeps its id, becomes active again and gets lastSeenAt now, ` +
    'the platform, userId and deviceMetadata given (an omitted userId or deviceMetadata keeps the stored one).',
  tags: ['Devices'],
  security: API_KEY_ONLY,
  request: jsonBody(RegisterDeviceBody),
  responses: { 200: json(DeviceResponse, 'the device'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/devices',
  summary: "A page of an app's devices, oldest first",
  description: `pageSize is 1 to ${MAX_PAGE_SIZE} (default 20); above it is a 400.`,
  tags: ['Devices'],
  security: USER_OR_API_KEY,
  request: { query: ListDevicesQuery },
  responses: { 200: json(DevicePage, 'a page of devices'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/devices/{deviceId}',
  summary: 'One device',
  tags: ['Devices'],
  security: USER_OR_API_KEY,
  request: { params: DeviceIdParams },
  responses: { 200: json(DeviceResponse, 'the device'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'put',
  path: '/api/v1/devices/{deviceId}',
  summary: "Change a device's userId and/or deviceMetadata",
  description: `${ApiKeyOnly}. userId null clears it; deviceMetadata replaces the stored object.`,
  tags: ['Devices'],
  security: API_KEY_ONLY,
  request: { params: DeviceIdParams, ...jsonBody(UpdateDeviceBody) },
  responses: { 200: json(DeviceResponse, 'the device as changed'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'delete',
  path: '/api/v1/devices/{deviceId}',
  summary: 'Delete a device',
  tags: ['Devices'],
  security: USER_OR_API_KEY,
  request: { params: DeviceIdParams },
  responses: { 204: { description: 'deleted' }, ...errorResponses(404) },
});
