// Labelled training set of the risk model (risk.ts, docs/triage.md "Risk signals"): hand-written
// texts per risk label under ./risk-dataset, and `none`: ordinary support text, part written for
// it (near misses and agents' replies) and part taken from the triage dataset, so that benign
// billing, account and abuse-report tickets stay `none`. Order is fixed, so folds by index are
// deterministic.
//
// `none` is trained as seven topics (`none:<triage category>` and `none:other`), whose
// probabilities the model adds up: ordinary support text is about anything, and natural's Bayes
// scores a word by the share of its class's documents that hold it, so one broad `none` class of
// many topics scored low on nearly every word and lost to the tight risk classes (5-fold accuracy
// 0.65, a third of ordinary texts flagged; docs/triage.md has the figures).
import type { LabelledText } from './classifier';
import { TRIAGE_CATEGORIES, type TriageCategory } from './categories';
import { TRIAGE_DATASET } from './dataset';
import { abuseTexts } from './risk-dataset/abuse';
import { accountCompromiseTexts } from './risk-dataset/account-compromise';
import { fraudTexts } from './risk-dataset/fraud';
import { legalThreatTexts } from './risk-dataset/legal-threat';
import { ordinaryTexts } from './risk-dataset/none';

/** The risk labels, `none` last. These strings are the `signal` of risk_signal.triggered. */
export const RISK_LABELS = ['fraud', 'abuse', 'account_compromise', 'legal_threat', 'none'] as const;
export type RiskLabel = (typeof RISK_LABELS)[number];
/** A label that is a risk (every label but `none`). */
export type RiskSignal = Exclude<RiskLabel, 'none'>;

/** The labels the model is trained on: the risk signals, then `none` by topic. */
export const RISK_MODEL_LABELS = [
  'fraud', 'abuse', 'account_compromise', 'legal_threat',
  ...TRIAGE_CATEGORIES.map((c) => `none:${c}` as const),
  'none:other',
] as const;
export type RiskModelLabel = RiskSignal | `none:${TriageCategory}` | 'none:other';

/** The public label of a model label (`none:*` is `none`). */
export const riskLabelOf = (label: RiskModelLabel): RiskLabel => (label.startsWith('none:') ? 'none' : (label as RiskSignal));

/**
 * Triage tickets that read as a risk themselves (a hacked account, a chargeback, a scam or a
 * threat reported) are not `none`: they are left out rather than relabelled.
 */
const RISKY_WORDING = /hack|stole|chargeback|lawyer|legal|court|sue\b|dispute|unauthori[sz]|fraud|scam|phish|threat|compromis|police|kill|where i live|someone (?:logged|got|has|used)|unknown location|impersonat|fake|used my account|guess my password/i;

export const readsAsRisk = (title: string, body: string): boolean => RISKY_WORDING.test(`${title}\n${body}`);

/**
 * The triage tickets taken as `none:<category>`: of each five in dataset order the 1st and the
 * 4th (about 40 per category, as many as each risk label has), unless they read as a risk.
 * The others are the unseen benign tickets the tests and risk-evaluate.ts check.
 */
export const isOrdinaryTrainingIndex = (index: number): boolean => index % 5 === 0 || index % 5 === 3 || index % 5 === 1;

export function ordinaryTriageTickets(): Array<LabelledText<RiskModelLabel>> {
  return TRIAGE_DATASET.filter((t, i) => isOrdinaryTrainingIndex(i) && !readsAsRisk(t.title, t.body)).map((t) => ({
    title: t.title,
    body: t.body,
    category: `none:${t.category}` as const,
  }));
}

const labelled = <L extends RiskModelLabel>(category: L, texts: Array<[string, string]>): Array<LabelledText<L>> =>
  texts.map(([title, body]) => ({ title, body, category }));

export const RISK_DATASET: readonly LabelledText<RiskModelLabel>[] = Object.freeze([
  ...labelled('fraud', fraudTexts),
  ...labelled('abuse', abuseTexts),
  ...labelled('account_compromise', accountCompromiseTexts),
  ...labelled('legal_threat', legalThreatTexts),
  ...labelled('none:other', ordinaryTexts),
  ...ordinaryTriageTickets(),
]);
