// The zod fields every API's schema.ts builds on: bounded text, email, our prefixed ids
// and UUIDs (uuid.ts). No field checks for NUL characters: the kit's input limits
// (input-limits.ts) refuse a NUL anywhere in the path, the query or the JSON body with a
// 400 before any schema runs (test/api/kit-nul-input.test.ts shows it for each API).
// The messages are the ones the APIs' tests and OpenAPI documents show; keep them.
import { z } from '../zod';

export { isUuid, uuidField, uuidParam } from './uuid';

/**
 * A string of at most `max` characters. `required` refuses the empty string
 * (`must not be empty`, documented as minLength 1) and one of only whitespace;
 * `notBlank` refuses both as `must not be blank` without a documented minimum.
 */
export function text(max: number, opts: { required?: boolean; notBlank?: boolean } = {}) {
  let s = z.string().max(max, `must be at most ${max} characters`);
  if (opts.required) {
    s = s.min(1, 'must not be empty');
    return s.refine((v) => v.trim().length > 0, 'must not be blank');
  }
  if (opts.notBlank) return s.refine((v) => v.trim().length > 0, 'must not be blank');
  return s;
}

/** A string trimmed before its bounds are checked: not blank, at most `max` characters. */
export function trimmedText(max: number) {
  return z.string().trim().min(1, 'must not be blank').max(max, `must be at most ${max} characters`);
}

/** An email address of at most 320 characters, as the ticketing API takes it. */
export const email = () => z.string().max(320, 'must be at most 320 characters').email('must be a valid email address');

/**
 * A path parameter naming a row by one of our prefixed ids (`kpl`, `agt`, `wh`). Any
 * string passes: the route checks it with looksLikeId and answers its 404 (never a 400),
 * like uuidParam.
 */
export const prefixedIdParam = (prefix: string) => z.string().openapi({ example: `${prefix}_01jd3k8xq7m2c4v9b0n6t5r8ya` });

/**
 * Whether `value` is shaped like one of our prefixed ids (`kpl_…`, `agt_…`, `wh_…`). A
 * value of another shape cannot name a row, so routes answer their 404 without a query.
 */
export function looksLikeId(value: string, prefix: string): boolean {
  return value.length <= 64 && new RegExp(`^${prefix}_[0-9a-zA-Z]+$`).test(value);
}
