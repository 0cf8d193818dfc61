import type { ZodTypeAny, z as Z } from 'zod';
import { errors } from './errors';

/** Parses with a schema; any mismatch is a 400 `validation_error` naming the fields. */
export function parse<S extends ZodTypeAny>(schema: S, input: unknown): Z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const message = result.error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
  throw errors.validation(message);
}
