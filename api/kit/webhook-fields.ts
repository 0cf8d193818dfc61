// The request fields every API's webhook endpoints share (the ticketing `/v1` and the
// platform API): which event types an endpoint subscribes to, and its URL's shape. Each
// API passes its own list of types; the messages and the OpenAPI shape are one.
import { MAX_URL_LENGTH } from '../../lib/webhooks/url-policy';
import { z } from '../zod';
import { text } from './fields';

/**
 * A list of the API's event types: at least one, at most 50, duplicates collapsed in the
 * caller's order. Our own messages: zod's enum error would not say that `*` is a wildcard
 * we do not support, which is the likeliest mistake.
 */
export function eventTypesField<T extends string>(types: readonly T[]) {
  const known = (v: string): v is T => (types as readonly string[]).includes(v);
  return z
    .array(z.string().max(100, 'must be at most 100 characters'), { invalid_type_error: 'must be an array of event types' })
    .min(1, 'must list at least one event type')
    .max(50, 'must list at most 50 event types')
    .superRefine((list, ctx) => {
      list.forEach((v, i) => {
        if (known(v)) return;
        const message =
          v.trim() === '*'
            ? `wildcard '*' is not supported; subscribe to each event type explicitly: ${types.join(', ')}`
            : `unknown event type '${v}'; one of ${types.join(', ')}`;
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i], message });
      });
    })
    .transform((list) => [...new Set(list)] as T[])
    .openapi({
      type: 'array',
      minItems: 1,
      items: { type: 'string', enum: [...types] },
      description: 'At least one; explicit types only (no `*`); duplicates are collapsed.',
    } as object);
}

/** Shape only: whether the URL is HTTPS to a public address needs DNS (the domain's URL policy, after parsing). */
export const endpointUrlField = () =>
  text(MAX_URL_LENGTH, { required: true }).openapi({
    format: 'uri',
    description: 'HTTPS to a publicly reachable host. Plain HTTP, private, loopback, link-local and metadata addresses are refused (400).',
    example: 'https://hooks.example.com/support',
  });
