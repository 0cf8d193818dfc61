// One OpenAPI registry per API, each served at that API's `<prefix>/openapi.json`
// (the zod schemas the routes validate with are the document, so the two cannot drift).
// The kit also writes the statuses every operation can answer because of the kit
// itself (input limits, 413, idempotency 409, rate limits, 503), so that no status an
// API can send is missing from its document.
import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import type Router from '@koa/router';
import { z } from '../zod';

export interface ApiDocsOptions {
  /** the envelope every error of this API has, registered as the `Error` component */
  errorSchema: z.ZodTypeAny;
  /** a word per status for the error responses' descriptions (the API's own codes) */
  codes: Record<number, string>;
  bearerDescription?: string;
  info: { title: string; version: string; description: string };
}

type JsonContent<T> = { description: string; content: { 'application/json': { schema: T } } };

export function createApiDocs(opts: ApiDocsOptions) {
  const registry = new OpenAPIRegistry();
  const bearerAuth = registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: opts.bearerDescription,
  });
  const ErrorEnvelope = registry.register('Error', opts.errorSchema);
  const describe = (s: number) => opts.codes[s] ?? 'error';

  /** Error responses of an authenticated operation (401, 403, 429 and the given ones). */
  function errorResponses(...statuses: number[]) {
    const out: Record<string, JsonContent<typeof ErrorEnvelope>> = {};
    for (const s of [401, 403, 429, ...statuses]) {
      out[String(s)] = { description: describe(s), content: { 'application/json': { schema: ErrorEnvelope } } };
    }
    return out;
  }

  /** The whole document, with the kit's statuses added to every operation (addKitStatuses). */
  function document(): object {
    const doc = new OpenApiGeneratorV3(registry.definitions).generateDocument({
      openapi: '3.0.3',
      info: opts.info,
      servers: [{ url: '/' }],
    });
    return addKitStatuses(nullableRefs(doc) as unknown as OpenApiDoc, describe);
  }

  return {
    registry,
    bearerAuth,
    ErrorEnvelope,
    errorResponses,
    security: [{ [bearerAuth.name]: [] }],
    document,
  };
}

/** A JSON response with its description. */
export const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A required JSON request body. */
export const jsonBody = <T extends z.ZodTypeAny>(schema: T) => ({
  body: { required: true, content: { 'application/json': { schema } } },
});

/**
 * zod-to-openapi writes a nullable registered schema as `allOf: [{$ref}, {nullable: true}]`,
 * which in OpenAPI 3.0 still refuses null (every allOf branch must pass, and the referenced
 * object is not null): the document said `assignee: null` was invalid while the API sends
 * it (schemathesis's response_schema_conformance found it). `anyOf: [{$ref}]` with
 * `nullable: true` says what is meant.
 */
function nullableRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(nullableRefs) as T;
  if (node === null || typeof node !== 'object') return node;
  const o = node as Record<string, unknown>;
  const allOf = o.allOf as Array<Record<string, unknown>> | undefined;
  if (
    Array.isArray(allOf) &&
    allOf.length === 2 &&
    typeof allOf[0].$ref === 'string' &&
    Object.keys(allOf[1]).length === 1 &&
    allOf[1].nullable === true
  ) {
    const { allOf: _, ...rest } = o;
    return { ...nullableRefs(rest), anyOf: [allOf[0]], nullable: true } as T;
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, nullableRefs(v)])) as T;
}

interface OpenApiOperation {
  parameters?: Array<{ in: string; name?: string }>;
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, unknown>;
}
interface OpenApiDoc {
  paths?: Record<string, Record<string, OpenApiOperation>>;
}

const IDEMPOTENCY_KEY = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    'Any POST: the first 2xx answer is replayed for the same key and body within 24 h (Idempotent-Replayed: true); ' +
    'another body under the same key is a 409. At most 255 characters.',
  schema: { type: 'string', maxLength: 255 },
};

/**
 * What the kit answers on any operation, whatever the route does:
 * - 400 always: a NUL or an undecodable escape in the path or in any query parameter
 *   (documented or not), a body that is not JSON, nested deeper than 32, or fails its schema;
 * - 404 when it has path parameters;
 * - 409 on POST (Idempotency-Key reused with another body, or still in progress);
 * - 413 when it takes a body;
 * - 401/403/429 when it needs a credential;
 * - 503 always (a dependency is down; Retry-After).
 * 405 is not an operation's answer (it is what a path answers for the methods it has no
 * operation for), so OpenAPI has no place for it; docs/api-kit.md documents it.
 */
function addKitStatuses(doc: OpenApiDoc, describe: (s: number) => string): object {
  const errorRef = { $ref: '#/components/schemas/Error' };
  for (const [, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      const statuses = [400, 503];
      const params = op.parameters ?? [];
      if (params.some((p) => p.in === 'path')) statuses.push(404);
      if (method === 'post') statuses.push(409);
      if (op.requestBody || ['post', 'put', 'patch'].includes(method)) statuses.push(413);
      if (op.security?.length) statuses.push(401, 403, 429);
      if (method === 'post' && !params.some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key')) {
        op.parameters = [...params, IDEMPOTENCY_KEY];
      }
      for (const s of statuses) {
        op.responses[String(s)] ??= {
          description: describe(s),
          content: { 'application/json': { schema: errorRef } },
        };
      }
    }
  }
  return doc;
}

/** `GET <prefix>/openapi.json`: the document, built once on first request. */
export function serveOpenApi(router: Router, build: () => object): void {
  let doc: object | undefined;
  router.get('/openapi.json', (ctx) => {
    ctx.body = doc ??= build();
  });
}
