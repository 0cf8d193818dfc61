// Local ticket classifier built on natural's BayesClassifier (LogisticRegressionClassifier is kept
// as an option for comparison: it was both less accurate and ~1000x slower to train here, see
// docs/triage.md). Runs in-process with no network, so triage always has an answer.
//
// natural is imported through its classifier/stemmer sub-paths on purpose: the package root also
// loads its Redis/Postgres/Mongo storage adapters, which call dotenv.config() and would quietly
// load this service's .env into process.env (and add ~0.5 s to start-up).
import { BayesClassifier, LogisticRegressionClassifier } from 'natural/lib/natural/classifiers';
import { TRIAGE_CATEGORIES, type TriageCategory } from './categories';
import { TRIAGE_DATASET, type LabelledTicket } from './dataset';
import { ticketFeatures, ticketText } from './text-features';

export type { LabelledTicket } from './dataset';

export type ClassifierAlgorithm = 'bayes' | 'logistic';

/** A classification over the labels `L` (the six triage categories unless another label set is trained). */
export interface TicketClassification<L extends string = TriageCategory> {
  category: L;
  /** Probability of `category`, in [0, 1]. */
  confidence: number;
  /** Full distribution over the labels; sums to 1. */
  probabilities: Record<L, number>;
}

export interface TicketClassifier<L extends string = TriageCategory> {
  /** Stable model id, stored with the triage result ("local-bayes-v1"). */
  readonly model: string;
  /** `text` is a ticket as built by ticketText(title, body): title on the first line. */
  classify(text: string): TicketClassification<L>;
}

/** A labelled example of any label set (LabelledTicket is the triage one). */
export interface LabelledText<L extends string> {
  title: string;
  body: string;
  category: L;
}

/**
 * What a classifier of another label set than the triage categories needs (the risk model,
 * risk.ts): its labels in a fixed order, its model id, and optionally its own features and
 * temperature. The defaults are the triage model's.
 */
export interface LabelSet<L extends string> {
  labels: readonly L[];
  model: string;
  /** feature tokens of a text; default ticketFeatures */
  features?: (text: string) => string[];
  /** default BAYES_TEMPERATURE */
  temperature?: number;
}


export const BAYES_MODEL_ID = 'local-bayes-v1';
export const LOGISTIC_MODEL_ID = 'local-logreg-v1';

/**
 * Naive Bayes adds one log-probability per word as if words were independent, so a plain softmax
 * of its scores is overconfident. Dividing the scores by this temperature first makes the
 * confidence track how often the model is right. 2 minimised held-out log-loss over 5-fold
 * cross-validation of the bundled dataset (0.343 at 1, 0.260 at 2, 0.298 at 3; calibration error
 * 0.049 -> 0.037). Re-check it when the dataset or the features change (evaluate.ts prints both).
 */
export const BAYES_TEMPERATURE = 2;

const TRIAGE_LABEL_SET: LabelSet<TriageCategory> = { labels: TRIAGE_CATEGORIES, model: BAYES_MODEL_ID };

type NaturalClassifier = BayesClassifier | LogisticRegressionClassifier;

/**
 * natural turns each document into a dense 0/1 vector by scanning the whole vocabulary with
 * Array.indexOf per feature (vocabulary x tokens per document). Same vector, built from a
 * feature -> position map instead (measured on 504 tickets: training 616 ms -> ~120 ms,
 * classification 0.64 ms -> 0.10 ms per ticket).
 * Positions follow Object.keys(features), which is the for..in order natural itself uses.
 */
function useIndexedFeatures(classifier: NaturalClassifier, features: (text: string) => string[]): () => Map<string, number> {
  let index = new Map<string, number>();
  const naturalTrain = classifier.train.bind(classifier);
  classifier.train = () => {
    index = new Map(Object.keys(classifier.features).map((feature, position) => [feature, position]));
    naturalTrain();
  };
  classifier.textToFeatures = (observation: string | string[]) => {
    const tokens = typeof observation === 'string' ? features(observation) : observation;
    const vector: number[] = new Array(index.size).fill(0);
    for (const token of tokens) {
      const position = index.get(token);
      if (position !== undefined) vector[position] = 1;
    }
    return vector;
  };
  return () => index;
}

/** Softmax over log-scores; -Infinity (category never seen in training) gets probability 0. */
function softmax(logScores: number[]): number[] {
  const max = Math.max(...logScores);
  const exps = logScores.map((score) => (Number.isFinite(score) ? Math.exp(score - max) : 0));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

function toClassification<L extends string>(labels: readonly L[], probabilities: number[]): TicketClassification<L> {
  let best = 0;
  for (let i = 1; i < probabilities.length; i++) if (probabilities[i] > probabilities[best]) best = i;
  const byCategory = Object.fromEntries(labels.map((category, i) => [category, probabilities[i]])) as Record<L, number>;
  return { category: labels[best], confidence: probabilities[best], probabilities: byCategory };
}

function addExamples<L extends string>(classifier: NaturalClassifier, examples: readonly LabelledText<L>[], features: (text: string) => string[]): void {
  if (examples.length === 0) throw new Error('trainClassifier: no training examples');
  for (const example of examples) {
    classifier.addDocument(features(ticketText(example.title, example.body)), example.category);
  }
}

function trainBayes<L extends string>(examples: readonly LabelledText<L>[], set: LabelSet<L>): TicketClassifier<L> {
  const features = set.features ?? ticketFeatures;
  const temperature = set.temperature ?? BAYES_TEMPERATURE;
  const bayes = new BayesClassifier();
  const featureIndex = useIndexedFeatures(bayes, features);
  addExamples(bayes, examples, features);
  bayes.train();
  const index = featureIndex();
  const { classFeatures, classTotals, totalExamples, smoothing } = bayes.classifier;

  // natural's getClassifications() returns prior * exp(sum of log P(word|class)), which
  // underflows to 0 for every class on long tickets. Same formula, kept in log space.
  const logScore = (category: L, positions: number[]): number => {
    const counts = classFeatures[category];
    if (!counts) return -Infinity;
    const total = classTotals[category];
    let score = Math.log(total / totalExamples);
    for (const position of positions) score += Math.log((counts[position] || smoothing) / total);
    return score;
  };

  return {
    model: set.model,
    classify(text: string): TicketClassification<L> {
      const positions = features(text)
        .map((feature) => index.get(feature))
        .filter((position): position is number => position !== undefined);
      const scores = set.labels.map((category) => logScore(category, positions) / temperature);
      return toClassification(set.labels, softmax(scores));
    },
  };
}

function trainLogistic<L extends string>(examples: readonly LabelledText<L>[], set: LabelSet<L>): TicketClassifier<L> {
  const features = set.features ?? ticketFeatures;
  const logistic = new LogisticRegressionClassifier();
  useIndexedFeatures(logistic, features);
  addExamples(logistic, examples, features);
  logistic.train();
  return {
    model: set === TRIAGE_LABEL_SET ? LOGISTIC_MODEL_ID : `${set.model}-logreg`,
    classify(text: string): TicketClassification<L> {
      // One sigmoid per class (one-vs-rest); they do not sum to 1, so normalise them.
      const values = new Map(logistic.getClassifications(features(text)).map((c) => [c.label, c.value]));
      const raw = set.labels.map((category) => values.get(category) ?? 0);
      const total = raw.reduce((sum, value) => sum + value, 0);
      return toClassification(set.labels, total > 0 ? raw.map((value) => value / total) : raw.map(() => 1 / raw.length));
    },
  };
}

/**
 * Trains a fresh classifier. Bayes by default: ~100-250 ms for the bundled 630 tickets.
 * Without `labelSet` it is the triage model over the six categories; with one, a model of
 * that label set (the risk model: risk.ts).
 */
export function trainClassifier(examples: readonly LabelledTicket[], options?: { algorithm?: ClassifierAlgorithm }): TicketClassifier;
export function trainClassifier<L extends string>(
  examples: readonly LabelledText<L>[],
  options: { algorithm?: ClassifierAlgorithm; labelSet: LabelSet<L> },
): TicketClassifier<L>;
export function trainClassifier<L extends string>(
  examples: readonly LabelledText<L>[],
  options: { algorithm?: ClassifierAlgorithm; labelSet?: LabelSet<L> } = {},
): TicketClassifier<L> {
  const set = options.labelSet ?? (TRIAGE_LABEL_SET as unknown as LabelSet<L>);
  return (options.algorithm ?? 'bayes') === 'bayes' ? trainBayes(examples, set) : trainLogistic(examples, set);
}

let cachedDefault: TicketClassifier | undefined;

/** The Bayes classifier trained on the full bundled dataset, trained on first use and then reused. */
export function defaultClassifier(): TicketClassifier {
  cachedDefault ??= trainClassifier(TRIAGE_DATASET);
  return cachedDefault;
}
