// The risk model: reads a ticket or a reply and says whether it is fraud, abuse, an account
// compromise or a legal or chargeback threat (docs/triage.md, "Risk signals"). The same local
// Bayes classifier as triage (classifier.ts trainClassifier) over its own labelled dataset
// (risk-dataset.ts), with the triage features plus the risk cue tokens. Deterministic (same
// text, same answer), in-process, trained once per process on first use. With an
// OpenAI-compatible endpoint configured it asks that first, as createTriager does, and the
// local model answers when that fails in any way (model id marked "(fallback)").
import { trainClassifier, type LabelSet, type TicketClassifier } from './classifier';
import type { OpenAIConfig } from './openai';
import { assessRiskWithOpenAI } from './risk-openai';
import { FALLBACK_MARK } from './triager';
import { riskCueFeatures } from './risk-cue-words';
import { RISK_DATASET, RISK_MODEL_LABELS, riskLabelOf, type RiskLabel, type RiskModelLabel, type RiskSignal } from './risk-dataset';
import { ticketFeatures } from './text-features';

export { RISK_LABELS, type RiskLabel, type RiskSignal } from './risk-dataset';

export const RISK_MODEL_ID = 'local-risk-bayes-v1';

/**
 * A text is a risk signal when the model's label is not `none` and its probability is at
 * least this. Chosen from 5-fold cross-validation of the bundled dataset (risk-evaluate.ts;
 * the sweep is in docs/triage.md): the lowest threshold at which at most 1 % of the ordinary
 * texts were flagged (0.8 %; 68 % of the risk texts flagged, 98 % of the flags right).
 */
export const RISK_THRESHOLD = 0.85;

/**
 * The softmax temperature of the risk model's Bayes scores (classifier.ts BAYES_TEMPERATURE has
 * the why): 1.5 had the lowest out-of-fold log-loss in 5-fold cross-validation (docs/triage.md).
 */
export const RISK_TEMPERATURE = 1.5;

export const RISK_LABEL_SET: LabelSet<RiskModelLabel> = {
  labels: RISK_MODEL_LABELS,
  model: RISK_MODEL_ID,
  features: (text) => [...ticketFeatures(text), ...riskCueFeatures(text)],
  temperature: RISK_TEMPERATURE,
};

export interface RiskAssessment {
  /** the label when it is a risk at or above the threshold; null otherwise */
  signal: RiskSignal | null;
  /** the model's label, `none` included */
  label: RiskLabel;
  /** the probability of `label`, in [0, 1] */
  confidence: number;
  model: string;
}

export interface RiskAssessor {
  /** `text` as ticketText(title, body) builds it: the title (or nothing) on the first line. Never rejects because of the LLM. */
  assess(text: string): Promise<RiskAssessment>;
}

export interface RiskAssessorConfig {
  /** Ask an OpenAI-compatible endpoint first (the platform worker passes lib/config.ts triageOpenAi, from TRIAGE_OPENAI_*). */
  openai?: OpenAIConfig;
  /** Called with the reason whenever the OpenAI path failed and the local model answered instead. */
  onFallback?: (reason: string, error: unknown) => void;
  /** default: the model trained on the bundled dataset (defaultRiskClassifier) */
  classifier?: TicketClassifier<RiskModelLabel>;
  /** default RISK_THRESHOLD */
  threshold?: number;
}

let cached: TicketClassifier<RiskModelLabel> | undefined;

/** The risk model trained on the full bundled dataset, trained on first use and then reused. */
export function defaultRiskClassifier(): TicketClassifier<RiskModelLabel> {
  cached ??= trainClassifier(RISK_DATASET, { labelSet: RISK_LABEL_SET });
  return cached;
}

/** The public labels' distribution (the `none:*` topics added up) and its most probable label. */
export function collapse(probabilities: Record<RiskModelLabel, number>): { label: RiskLabel; confidence: number; probabilities: Record<RiskLabel, number> } {
  const byLabel: Record<RiskLabel, number> = { fraud: 0, abuse: 0, account_compromise: 0, legal_threat: 0, none: 0 };
  for (const [label, p] of Object.entries(probabilities) as Array<[RiskModelLabel, number]>) byLabel[riskLabelOf(label)] += p;
  let label: RiskLabel = 'none';
  for (const l of Object.keys(byLabel) as RiskLabel[]) if (byLabel[l] > byLabel[label]) label = l;
  return { label, confidence: byLabel[label], probabilities: byLabel };
}

/** The local model's assessment (synchronous, deterministic). */
export function assessLocally(text: string, classifier: TicketClassifier<RiskModelLabel> = defaultRiskClassifier(), threshold = RISK_THRESHOLD): RiskAssessment {
  const { label, confidence } = collapse(classifier.classify(text).probabilities);
  return { signal: signalOf(label, confidence, threshold), label, confidence, model: classifier.model };
}

const signalOf = (label: RiskLabel, confidence: number, threshold: number): RiskSignal | null =>
  label !== 'none' && confidence >= threshold ? label : null;

export function createRiskAssessor(config: RiskAssessorConfig = {}): RiskAssessor {
  const threshold = config.threshold ?? RISK_THRESHOLD;
  const local = (text: string, modelSuffix = ''): RiskAssessment => {
    const a = assessLocally(text, config.classifier ?? defaultRiskClassifier(), threshold);
    return { ...a, model: `${a.model}${modelSuffix}` };
  };
  return {
    async assess(text) {
      if (!config.openai) return local(text);
      try {
        const { label, confidence } = await assessRiskWithOpenAI(config.openai, text);
        return { signal: signalOf(label, confidence, threshold), label, confidence, model: `openai:${config.openai.model}` };
      } catch (error) {
        config.onFallback?.((error as Error)?.message ?? String(error), error);
        return local(text, FALLBACK_MARK);
      }
    },
  };
}
