// The six triage categories. These exact strings are stored in tickets.aiSuggestedCategory,
// so renaming one is a data migration, not a refactor.
export const TRIAGE_CATEGORIES = ['billing', 'gameplay', 'account', 'technical', 'abuse', 'feedback'] as const;

export type TriageCategory = (typeof TRIAGE_CATEGORIES)[number];

export function isTriageCategory(value: unknown): value is TriageCategory {
  return typeof value === 'string' && (TRIAGE_CATEGORIES as readonly string[]).includes(value);
}
