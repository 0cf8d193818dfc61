import { OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { registry } from './openapi-registry';
// Each schema module registers its paths on import.
import './auth/schema';
import './players/schema';
import './agents/schema';
import './settings/schema';
import './tickets/schema';
import './webhooks/openapi-paths';

export function openApiDocument() {
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Support Ticketing Service API',
      version: '1.0.0',
      description: 'Document 1: game-support tickets, players, agents, API keys and access tokens, webhooks.',
    },
    servers: [{ url: '/' }],
  });
}
