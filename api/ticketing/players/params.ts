// Small zod building blocks shared by the players, agents and settings resources.
// Postgres rejects NUL in text and jsonb, so every string that reaches a query is
// checked here first: a NUL would otherwise surface as a 500 from the driver.
import { z } from '../../zod';

const NO_NUL = (s: string) => !s.includes('\u0000');

/** A string of at most `max` characters without NUL; `required` also rejects blank ones. */
export function text(max: number, opts: { required?: boolean } = {}) {
  let s = z.string().max(max, `must be at most ${max} characters`);
  if (opts.required) s = s.min(1, 'must not be empty');
  return s
    .refine(NO_NUL, 'must not contain NUL characters')
    .refine((v) => !opts.required || v.trim().length > 0, 'must not be blank');
}

export const email = () => z.string().max(320, 'must be at most 320 characters').email('must be a valid email address');

/** An id shaped like ours (`kpl_…`, `agt_…`); anything else cannot exist, so it is a 404. */
export function looksLikeId(value: string, prefix: string): boolean {
  return value.length <= 64 && new RegExp(`^${prefix}_[0-9a-zA-Z]+$`).test(value);
}

/** A workspace id that is safe to hand to the database (used before requireWorkspace). */
export const workspaceIdParam = () => text(255, { required: true });
