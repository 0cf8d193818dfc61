// The platform spec's Limits table, the time windows (docs/platform.md, "Timers"). Pure:
// the workflows that keep the timers and the request paths that check a window read the
// same numbers and the same arithmetic.

const DAY_MS = 24 * 3600 * 1000;

/** A token's optional expiry, in days; no expiry by default. */
export const TOKEN_EXPIRY_DAYS = [30, 60, 90] as const;
export type TokenExpiryDays = (typeof TOKEN_EXPIRY_DAYS)[number];

/** A soft-deleted ticket is restorable this long, then purged. */
export const TICKET_RECOVERY_DAYS = 30;
/** A deleted workspace is disabled at once and removed with all its data after this grace. */
export const WORKSPACE_DELETION_GRACE_DAYS = 30;
/** A deactivated user can be reactivated this long; then their personal data is erased. */
export const USER_REACTIVATION_DAYS = 90;

/** `from` plus whole days. */
export const daysAfter = (from: Date, days: number): Date => new Date(from.getTime() + days * DAY_MS);

/** Whether `now` is still inside a window that closes at `closesAt` (the boundary itself is outside). */
export const isWithin = (now: Date, closesAt: Date): boolean => now.getTime() < closesAt.getTime();
