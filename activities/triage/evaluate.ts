// Measures the local classifier on the bundled dataset; the numbers in docs/triage.md come from here.
//   npx tsx activities/triage/evaluate.ts              # Bayes: held-out split, 5-fold CV, timings
//   npx tsx activities/triage/evaluate.ts --logistic   # also logistic regression (takes minutes)
import { TRIAGE_CATEGORIES, type TriageCategory } from './categories';
import { trainClassifier, type ClassifierAlgorithm, type LabelSet, type LabelledText, type TicketClassification, type TicketClassifier } from './classifier';
import { TRIAGE_DATASET, splitDataset, type LabelledTicket } from './dataset';
import { ticketText } from './text-features';

export interface Evaluation<L extends string = TriageCategory> {
  accuracy: number;
  /** Log-loss of the true category's probability: lower means better-calibrated confidence. */
  logLoss: number;
  confusion: Record<L, Record<L, number>>;
}

/** `labels`: the label set's (default the triage categories). */
export function evaluate<L extends string = TriageCategory>(
  classifier: TicketClassifier<L>,
  examples: readonly LabelledText<L>[],
  labels: readonly L[] = TRIAGE_CATEGORIES as unknown as readonly L[],
): Evaluation<L> {
  const confusion = Object.fromEntries(
    labels.map((actual) => [actual, Object.fromEntries(labels.map((p) => [p, 0]))]),
  ) as Evaluation<L>['confusion'];
  let correct = 0;
  let logLoss = 0;
  for (const example of examples) {
    const result = classifier.classify(ticketText(example.title, example.body));
    confusion[example.category][result.category]++;
    if (result.category === example.category) correct++;
    logLoss -= Math.log(Math.max(result.probabilities[example.category], 1e-12));
  }
  return { accuracy: correct / examples.length, logLoss: logLoss / examples.length, confusion };
}

/**
 * Accuracy on each of `folds` folds (fold k = examples whose index % folds === k). With a
 * `labelSet`, of that label set's model (the risk model) instead of the triage one.
 */
export function crossValidate(examples: readonly LabelledTicket[], folds?: number, algorithm?: ClassifierAlgorithm): number[];
export function crossValidate<L extends string>(examples: readonly LabelledText<L>[], folds: number, algorithm: ClassifierAlgorithm, labelSet: LabelSet<L>): number[];
export function crossValidate<L extends string>(
  examples: readonly LabelledText<L>[],
  folds = 5,
  algorithm: ClassifierAlgorithm = 'bayes',
  labelSet?: LabelSet<L>,
): number[] {
  return Array.from({ length: folds }, (_, fold) => {
    const train = examples.filter((_, i) => i % folds !== fold);
    const test = examples.filter((_, i) => i % folds === fold);
    if (!labelSet) return evaluate(trainClassifier(train as unknown as LabelledTicket[], { algorithm }), test as unknown as LabelledTicket[]).accuracy;
    return evaluate(trainClassifier(train, { algorithm, labelSet }), test, labelSet.labels).accuracy;
  });
}

/** Every example's classification by the model of the fold that held it out (the same folds as crossValidate). */
export function outOfFoldClassifications<L extends string>(
  examples: readonly LabelledText<L>[],
  labelSet: LabelSet<L>,
  folds = 5,
): Array<{ example: LabelledText<L>; result: TicketClassification<L> }> {
  const out: Array<{ example: LabelledText<L>; result: TicketClassification<L> }> = new Array(examples.length);
  for (let fold = 0; fold < folds; fold++) {
    const model = trainClassifier(examples.filter((_, i) => i % folds !== fold), { labelSet });
    examples.forEach((example, i) => {
      if (i % folds === fold) out[i] = { example, result: model.classify(ticketText(example.title, example.body)) };
    });
  }
  return out;
}

function report(algorithm: ClassifierAlgorithm): void {
  const { train, heldOut } = splitDataset(TRIAGE_DATASET);
  const started = performance.now();
  const classifier = trainClassifier(train, { algorithm });
  const trainMs = performance.now() - started;

  const classifyStarted = performance.now();
  const rounds = algorithm === 'bayes' ? 20 : 1;
  for (let round = 0; round < rounds; round++) {
    for (const example of heldOut) classifier.classify(ticketText(example.title, example.body));
  }
  const classifyMs = (performance.now() - classifyStarted) / (rounds * heldOut.length);

  const { accuracy, logLoss, confusion } = evaluate(classifier, heldOut);
  console.log(`\n== ${classifier.model} (${algorithm}) ==`);
  console.log(`dataset ${TRIAGE_DATASET.length}, train ${train.length}, held out ${heldOut.length} (every 5th)`);
  console.log(`held-out accuracy ${accuracy.toFixed(3)}, log-loss ${logLoss.toFixed(3)}`);
  console.log(`train ${trainMs.toFixed(0)} ms, classify ${classifyMs.toFixed(3)} ms/ticket`);
  if (algorithm === 'bayes') {
    const folds = crossValidate(TRIAGE_DATASET, 5, algorithm);
    const mean = folds.reduce((sum, value) => sum + value, 0) / folds.length;
    console.log(`5-fold accuracy ${mean.toFixed(3)} (folds ${folds.map((value) => value.toFixed(3)).join(', ')})`);
  }
  console.log(`confusion (rows = actual, columns = predicted):`);
  console.log(`${''.padEnd(10)}${TRIAGE_CATEGORIES.map((c) => c.slice(0, 9).padStart(10)).join('')}`);
  for (const actual of TRIAGE_CATEGORIES) {
    console.log(`${actual.padEnd(10)}${TRIAGE_CATEGORIES.map((p) => String(confusion[actual][p]).padStart(10)).join('')}`);
  }
}

if (require.main === module) {
  report('bayes');
  if (process.argv.includes('--logistic')) report('logistic');
}
