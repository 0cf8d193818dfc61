// /api/v1/openapi.json: a valid document with both security schemes and every accounts,
// apps and API-key operation with the statuses it answers.
import assert from 'node:assert/strict';
import type { TestApi } from '../support/api';
import { validateOpenApi } from '../support/openapi-validator';
import { startPushApi } from '../support/push';

describe('push OpenAPI document', () => {
  let api: TestApi;
  let doc: any;
  let headers: Headers;
  beforeAll(async () => {
    api = await startPushApi();
    const res = await api.request('GET', '/api/v1/openapi.json');
    doc = res.body;
    headers = res.headers;
  });
  afterAll(async () => api?.stop());

  it('is valid OpenAPI 3 with the bearer JWT and ApiKey schemes (served with X-RateLimit-*)', async () => {
    assert.ok(headers.get('x-ratelimit-limit') && headers.get('x-ratelimit-remaining') && headers.get('x-ratelimit-reset'));
    const result = await validateOpenApi(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      description: doc.components.securitySchemes.bearerAuth.description,
    });
    assert.deepEqual(
      { ...doc.components.securitySchemes.ApiKey, description: undefined },
      { type: 'apiKey', in: 'header', name: 'Authorization', description: undefined },
    );
  });

  it('documents every operation with its statuses and security', () => {
    const expected: Array<[string, string, string[], 'none' | 'user' | 'both']> = [
      ['/api/v1/health', 'get', ['200', '503'], 'none'],
      ['/api/v1/auth/register', 'post', ['201', '400', '409', '413', '429'], 'none'],
      ['/api/v1/auth/login', 'post', ['200', '400', '401', '429'], 'none'],
      ['/api/v1/auth/refresh', 'post', ['200', '400', '401', '429'], 'none'],
      ['/api/v1/auth/me', 'get', ['200', '401', '429'], 'user'],
      ['/api/v1/apps', 'get', ['200', '401', '429'], 'both'],
      ['/api/v1/apps', 'post', ['201', '400', '401', '403', '409', '413', '429'], 'both'],
      ['/api/v1/apps/{appId}', 'get', ['200', '401', '403', '404'], 'both'],
      ['/api/v1/apps/{appId}', 'put', ['200', '400', '403', '404', '413'], 'both'],
      ['/api/v1/apps/{appId}', 'delete', ['204', '403', '404'], 'both'],
      ['/api/v1/apps/{appId}/fcm-config', 'put', ['200', '400', '403', '404'], 'both'],
      ['/api/v1/apps/{appId}/apns-config', 'put', ['200', '400', '403', '404'], 'both'],
      ['/api/v1/api-keys', 'post', ['201', '400', '403', '404', '409'], 'both'],
      ['/api/v1/api-keys', 'get', ['200', '400', '403', '404'], 'both'],
      ['/api/v1/api-keys/{keyId}', 'delete', ['204', '403', '404'], 'both'],
      ['/api/v1/campaigns', 'post', ['201', '400', '401', '403', '404', '413', '429'], 'both'],
      ['/api/v1/campaigns', 'get', ['200', '400', '403', '404'], 'both'],
      ['/api/v1/campaigns/{campaignId}', 'get', ['200', '403', '404'], 'both'],
      ['/api/v1/campaigns/{campaignId}/send', 'post', ['202', '403', '404', '409'], 'both'],
      ['/api/v1/campaigns/{campaignId}/schedule', 'post', ['200', '400', '403', '404', '409'], 'both'],
      ['/api/v1/campaigns/{campaignId}/cancel', 'post', ['200', '403', '404', '409'], 'both'],
      ['/api/v1/campaigns/{campaignId}/analytics', 'get', ['200', '403', '404'], 'both'],
    ];
    for (const [path, method, statuses, security] of expected) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path} documented`);
      for (const s of [...statuses, '503']) assert.ok(op.responses[s], `${s} on ${method} ${path}`);
      const schemes = (op.security ?? []).flatMap((r: object) => Object.keys(r)).sort();
      assert.deepEqual(schemes, { none: [], user: ['bearerAuth'], both: ['ApiKey', 'bearerAuth'] }[security], `${method} ${path} security`);
    }
    assert.ok(doc.paths['/api/v1/api-keys'].post.parameters.some((p: any) => p.name === 'Idempotency-Key'));
  });
});
