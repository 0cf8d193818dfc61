// Timestamps as every API answers them: ISO 8601 in UTC with milliseconds
// (`2026-11-27T06:40:00.000Z`). Rows carry a Date (TypeORM) or a string (raw SQL,
// workflow records); both come out the same.

/** The ISO 8601 form of a timestamp. */
export const iso = (at: Date | string): string => new Date(at).toISOString();

/** The ISO 8601 form, or null for "not yet" (a timestamp column that may be empty). */
export const isoOrNull = (at: Date | string | null | undefined): string | null => (at === null || at === undefined ? null : iso(at));
