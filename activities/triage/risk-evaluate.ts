// Measures the risk model on its bundled dataset; the figures and the threshold in
// docs/triage.md ("Risk signals") come from here.
//   npx tsx activities/triage/risk-evaluate.ts
import { TRIAGE_DATASET } from './dataset';
import { crossValidate, evaluate, outOfFoldClassifications } from './evaluate';
import { RISK_DATASET, RISK_LABELS, RISK_MODEL_LABELS, isOrdinaryTrainingIndex, readsAsRisk, riskLabelOf } from './risk-dataset';
import { assessLocally, collapse, RISK_LABEL_SET, RISK_THRESHOLD } from './risk';
import { ticketText } from './text-features';
import { trainClassifier } from './classifier';

export interface ThresholdRow {
  threshold: number;
  /** risk texts flagged with their own label / risk texts */
  recall: number;
  /** flags that are right (the label matches) / flags */
  precision: number;
  /** ordinary (`none`) texts flagged / ordinary texts */
  falsePositiveRate: number;
}

/** Out-of-fold (5-fold) predictions in the public labels. */
function publicPredictions() {
  return outOfFoldClassifications(RISK_DATASET, RISK_LABEL_SET, 5).map(({ example, result }) => {
    const c = collapse(result.probabilities);
    return { example: { ...example, category: riskLabelOf(example.category) }, result: { category: c.label, confidence: c.confidence } };
  });
}

/** Out-of-fold (5-fold) flag rates at each threshold. */
export function thresholdSweep(thresholds: number[]): ThresholdRow[] {
  const predictions = publicPredictions();
  const risky = predictions.filter((p) => p.example.category !== 'none');
  const ordinary = predictions.filter((p) => p.example.category === 'none');
  return thresholds.map((threshold) => {
    const flagged = (p: (typeof predictions)[number]) => p.result.category !== 'none' && p.result.confidence >= threshold;
    const flags = predictions.filter(flagged);
    const right = flags.filter((p) => p.result.category === p.example.category).length;
    return {
      threshold,
      recall: risky.filter((p) => flagged(p) && p.result.category === p.example.category).length / risky.length,
      precision: flags.length ? right / flags.length : 1,
      falsePositiveRate: ordinary.filter(flagged).length / ordinary.length,
    };
  });
}

/** Triage tickets the risk model was not trained on, that do not read as a risk: how many are flagged. */
export function unseenTriageFlags(): { tickets: number; flagged: Array<{ title: string; signal: string; confidence: number }> } {
  const unseen = TRIAGE_DATASET.filter((t, i) => !isOrdinaryTrainingIndex(i) && !readsAsRisk(t.title, t.body));
  const flagged = unseen
    .map((t) => ({ title: t.title, ...assessLocally(ticketText(t.title, t.body)) }))
    .filter((a) => a.signal !== null)
    .map((a) => ({ title: a.title, signal: a.signal!, confidence: Number(a.confidence.toFixed(3)) }));
  return { tickets: unseen.length, flagged };
}

function report(): void {
  const counts = Object.fromEntries(RISK_MODEL_LABELS.map((l) => [l, RISK_DATASET.filter((e) => e.category === l).length]));
  console.log(`dataset ${RISK_DATASET.length}: ${JSON.stringify(counts)}`);
  const folds = crossValidate(RISK_DATASET, 5, 'bayes', RISK_LABEL_SET);
  const mean = folds.reduce((a, b) => a + b, 0) / folds.length;
  console.log(`5-fold accuracy over the model's labels ${mean.toFixed(3)} (folds ${folds.map((f) => f.toFixed(3)).join(', ')})`);
  const preds = publicPredictions();
  const right = preds.filter((p) => p.example.category === p.result.category).length;
  console.log(`5-fold accuracy over the public labels ${(right / preds.length).toFixed(3)}`);
  console.log('out-of-fold confusion (rows actual, columns predicted):');
  console.log(''.padEnd(20) + RISK_LABELS.map((l) => l.slice(0, 12).padStart(14)).join(''));
  for (const actual of RISK_LABELS) {
    const row = RISK_LABELS.map((p) => preds.filter((x) => x.example.category === actual && x.result.category === p).length);
    console.log(actual.padEnd(20) + row.map((n) => String(n).padStart(14)).join(''));
  }
  console.log('threshold sweep (out of fold): threshold, recall, precision, false-positive rate on none');
  for (const r of thresholdSweep([0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95])) {
    console.log(`  ${r.threshold.toFixed(2)}  ${r.recall.toFixed(3)}  ${r.precision.toFixed(3)}  ${r.falsePositiveRate.toFixed(3)}`);
  }
  const started = performance.now();
  const model = trainClassifier(RISK_DATASET, { labelSet: RISK_LABEL_SET });
  console.log(`train ${(performance.now() - started).toFixed(0)} ms; full-data accuracy ${evaluate(model, RISK_DATASET, RISK_MODEL_LABELS).accuracy.toFixed(3)}`);
  const unseen = unseenTriageFlags();
  console.log(`unseen triage tickets at threshold ${RISK_THRESHOLD}: ${unseen.flagged.length} of ${unseen.tickets} flagged`);
  for (const f of unseen.flagged) console.log(`  ${f.signal} ${f.confidence} ${f.title}`);
}

if (require.main === module) report();
