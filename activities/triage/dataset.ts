// Labelled training set for the local triage classifier: hand-written game-support tickets,
// one file per category under ./dataset. Order is fixed (category by category, file order
// within), so any split made by index is deterministic.
import type { TriageCategory } from './categories';
import { billingTickets } from './dataset/billing';
import { gameplayTickets } from './dataset/gameplay';
import { accountTickets } from './dataset/account';
import { technicalTickets } from './dataset/technical';
import { abuseTickets } from './dataset/abuse';
import { feedbackTickets } from './dataset/feedback';

export interface LabelledTicket {
  title: string;
  body: string;
  category: TriageCategory;
}

const ticketsByCategory: Record<TriageCategory, Array<[title: string, body: string]>> = {
  billing: billingTickets,
  gameplay: gameplayTickets,
  account: accountTickets,
  technical: technicalTickets,
  abuse: abuseTickets,
  feedback: feedbackTickets,
};

export const TRIAGE_DATASET: readonly LabelledTicket[] = Object.freeze(
  (Object.keys(ticketsByCategory) as TriageCategory[]).flatMap((category) =>
    ticketsByCategory[category].map(([title, body]) => Object.freeze({ title, body, category })),
  ),
);

/**
 * Deterministic train/held-out split: every `every`-th example (by dataset index) is held out.
 * The dataset is grouped by category, so this keeps the held-out set balanced too.
 */
export function splitDataset(
  examples: readonly LabelledTicket[],
  every = 5,
): { train: LabelledTicket[]; heldOut: LabelledTicket[] } {
  const train: LabelledTicket[] = [];
  const heldOut: LabelledTicket[] = [];
  examples.forEach((example, index) => (index % every === every - 1 ? heldOut : train).push(example));
  return { train, heldOut };
}
