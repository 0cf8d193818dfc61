import { z } from '../../zod';
import { canonicalPlatform, PLATFORMS, type Platform } from '../../../lib/push/platform';

/** `Android` or `iOS` in any letter case; the canonical spelling after parsing. */
export const PlatformInput = z
  .string()
  .max(20)
  .refine((v) => canonicalPlatform(v) !== null, { message: `must be one of ${PLATFORMS.join(', ')} (any letter case)` })
  .transform((v) => canonicalPlatform(v) as Platform)
  .openapi({ description: 'Android or iOS, any letter case', example: 'Android' });

const name = z.string().trim().min(1).max(200);

export const CreateAppRequest = z
  .object({
    name: name.openapi({ example: 'Space Miners' }),
    bundleId: z.string().trim().min(1).max(255).openapi({ example: 'com.studio.miners' }),
    platform: PlatformInput,
  })
  .openapi('PushCreateAppRequest');

export const UpdateAppRequest = z.object({ name: name.openapi({ example: 'Space Miners 2' }) }).openapi('PushUpdateAppRequest');

export const FcmConfigRequest = z
  .object({
    serviceAccountJson: z
      .string()
      .min(2)
      .max(20_000)
      .openapi({ description: 'The service-account JSON document (as a string): project_id, client_email and an RSA private_key are checked' }),
  })
  .openapi('PushFcmConfigRequest');

export const ApnsConfigRequest = z
  .object({
    keyId: z.string().trim().regex(/^[A-Z0-9]{10}$/, 'must be the 10-character key id Apple shows').openapi({ example: 'ABC123DEFG' }),
    teamId: z.string().trim().regex(/^[A-Z0-9]{10}$/, 'must be the 10-character team id').openapi({ example: 'TEAM123456' }),
    bundleId: z.string().trim().min(1).max(255).openapi({ example: 'com.studio.miners' }),
    p8KeyContent: z.string().min(1).max(10_000).openapi({ description: 'The .p8 auth key text (PEM, EC P-256)' }),
    useSandbox: z.boolean().openapi({ description: 'true: api.sandbox.push.apple.com' }),
  })
  .openapi('PushApnsConfigRequest');

export const App = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    bundleId: z.string(),
    platform: z.enum(PLATFORMS),
    hasFcmConfig: z.boolean(),
    hasApnsConfig: z.boolean(),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi('PushApp');
