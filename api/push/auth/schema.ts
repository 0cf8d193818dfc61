import { z } from '../../zod';

const email = z
  .string()
  .trim()
  .toLowerCase()
  .min(3)
  .max(254)
  .email()
  .openapi({ example: 'dev@studio.example' });
// argon2 hashes any length; the cap keeps a login from being a hashing workload
const password = z.string().min(8).max(256).openapi({ example: 'correct horse battery' });

export const RegisterRequest = z
  .object({ email, password, name: z.string().trim().min(1).max(200).openapi({ example: 'Robin' }) })
  .openapi('PushRegisterRequest');

export const LoginRequest = z
  .object({ email, password: z.string().min(1).max(256) })
  .openapi('PushLoginRequest');

export const RefreshRequest = z
  .object({ refreshToken: z.string().min(1).max(512).openapi({ description: 'The opaque refresh token of the last auth result' }) })
  .openapi('PushRefreshRequest');

export const User = z
  .object({
    id: z.string().uuid(),
    email: z.string(),
    name: z.string(),
    createdAt: z.string().datetime(),
  })
  .openapi('PushUser');

export const AuthResult = z
  .object({
    accessToken: z.string().openapi({ description: 'RS256 JWT, audience push-api, valid 15 minutes' }),
    refreshToken: z.string().openapi({ description: 'Opaque, single use: each refresh answers a new one' }),
    expiresAt: z.string().datetime().openapi({ description: 'When the access token expires' }),
    user: User,
  })
  .openapi('PushAuthResult');
