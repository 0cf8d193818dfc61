import { z } from '../../zod';

export const CreateApiKeyRequest = z
  .object({
    appId: z.string().uuid().openapi({ description: 'The app the key is for (its only scope)' }),
    name: z.string().trim().min(1).max(200).openapi({ example: 'iOS SDK' }),
  })
  .openapi('PushCreateApiKeyRequest');

export const ListApiKeysQuery = z.object({ appId: z.string().uuid().openapi({ description: 'The app whose keys to list' }) });

export const ApiKey = z
  .object({
    id: z.string().uuid(),
    appId: z.string().uuid(),
    name: z.string(),
    prefix: z.string().openapi({ description: 'The leading characters of the key', example: 'pk_3fQ9xK2' }),
    createdAt: z.string().datetime(),
    lastUsedAt: z.string().datetime().nullable(),
  })
  .openapi('PushApiKey');

export const CreatedApiKey = ApiKey.extend({
  key: z.string().openapi({ description: 'The whole key: shown only in this answer. Send it as `Authorization: ApiKey <key>`' }),
}).openapi('PushCreatedApiKey');
