import type { ZodError, ZodTypeAny, z as Z } from 'zod';
import { errors, type FieldErrors } from './errors';

/** zod's issues by field path (`tags.2`); issues about the whole input go under `_`. */
export function fieldErrors(error: ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '_';
    (out[field] ??= []).push(issue.message);
  }
  return out;
}

/**
 * Parses with a schema; any mismatch is a 400 `validation_error` whose message names
 * the first fields and whose `details` keep every field's messages.
 */
export function parse<S extends ZodTypeAny>(schema: S, input: unknown): Z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const message = result.error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
  throw errors.validation(message, fieldErrors(result.error));
}
