import assert from 'node:assert/strict';
import { startApi, type TestApi } from '../support/api';
import { validateOpenApi } from '../support/openapi-validator';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.stop());

test('GET /v1/openapi.json is a valid OpenAPI 3 document covering the ticketing API', async () => {
  const res = await api.request('GET', '/v1/openapi.json');
  assert.equal(res.status, 200);
  const result = await validateOpenApi(res.body);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
  const paths = Object.keys(res.body.paths);
  for (const p of ['/v1/tickets', '/v1/tickets/{id}', '/v1/tickets/{id}/assign', '/v1/tickets/{id}/resolve', '/v1/tickets/{id}/messages']) {
    assert.ok(paths.includes(p), `${p} documented`);
  }
  assert.ok(res.body.paths['/v1/tickets'].post.requestBody);
});

test('health endpoints answer without credentials', async () => {
  for (const p of ['/v1/health', '/platform/v1/health', '/api/v1/health']) {
    assert.equal((await api.request('GET', p)).status, 200);
  }
});
