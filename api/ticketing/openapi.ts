import { openApiDocument as build, registry } from './openapi-registry';
import { z } from '../zod';
// Each schema module registers its paths on import.
import './auth/schema';
import './players/schema';
import './agents/schema';
import './settings/schema';
import './tickets/schema';
import './webhooks/schema';

registry.registerPath({
  method: 'get',
  path: '/v1/health',
  summary: 'Liveness of the API process',
  security: [],
  responses: { 200: { description: 'up', content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } } } },
});

export const openApiDocument = build;
