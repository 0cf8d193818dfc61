// Tickets an organization may create per UTC calendar month, by plan (docs/tickets.md, the quota).
export const MONTHLY_TICKET_QUOTA = { starter: 5_000, growth: 50_000, scale: Infinity } as const;
export type QuotaPlan = keyof typeof MONTHLY_TICKET_QUOTA;

/** 'YYYY-MM' in UTC: the row of ticket_usage a ticket created at `at` counts in. */
export function usageMonth(at: Date | string): string {
  return (typeof at === 'string' ? at : at.toISOString()).slice(0, 7);
}
