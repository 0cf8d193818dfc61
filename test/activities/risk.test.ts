// The risk model (activities/triage/risk.ts, docs/triage.md "Risk signals"): risk-worded texts
// of each label, written here and not in its dataset, are flagged with their label at or above
// the threshold; benign tickets of every triage category it was not trained on are not; the
// same text gets the same answer; the cross-validation behind the threshold holds.
import assert from 'node:assert/strict';
import { TRIAGE_CATEGORIES } from '../../activities/triage/categories';
import { TRIAGE_DATASET } from '../../activities/triage/dataset';
import { trainClassifier } from '../../activities/triage/classifier';
import { crossValidate } from '../../activities/triage/evaluate';
import { createRiskAssessor, RISK_LABEL_SET, RISK_MODEL_ID, RISK_THRESHOLD, type RiskSignal } from '../../activities/triage/risk';
import { isOrdinaryTrainingIndex, RISK_DATASET, readsAsRisk } from '../../activities/triage/risk-dataset';
import { thresholdSweep } from '../../activities/triage/risk-evaluate';
import { ticketText } from '../../activities/triage/text-features';

const assessor = createRiskAssessor();

const RISKY: Record<RiskSignal, Array<[string, string]>> = {
  fraud: [
    ['Fraudulent charges', 'Someone used my stolen credit card to buy subscriptions on your site. The bank confirmed it is fraud.'],
    ['Phishing in your name', 'Scammers are sending fake emails with your logo asking people for their card number and CVV.'],
  ],
  abuse: [
    ['you idiots', 'You worthless idiots. I will find your office and hurt the next one of you I see. You will regret this.'],
    ['threat', 'I know where your agent lives. Keep ignoring me and see what happens to her family.'],
  ],
  account_compromise: [
    ['My account was hacked', 'Someone hacked my account, changed my password and email, and now I cannot log in.'],
    ['Logins I did not make', 'My account shows logins from unknown devices in another country. Someone else has access to my account.'],
  ],
  legal_threat: [
    ['Chargeback', 'If you do not refund me by Friday I will file a chargeback with my bank.'],
    ['Lawyer', 'My lawyer will sue your company for this. See you in court.'],
  ],
};

describe('risk model', () => {
  for (const [label, samples] of Object.entries(RISKY)) {
    it(`flags ${label}-worded texts as ${label} at or above the threshold (${RISK_THRESHOLD})`, () => {
      for (const [title, body] of samples) {
        const a = assessor.assess(ticketText(title, body));
        assert.equal(a.signal, label, `${title}: ${JSON.stringify(a)}`);
        assert.ok(a.confidence >= RISK_THRESHOLD, `${title}: ${a.confidence}`);
        assert.equal(a.model, RISK_MODEL_ID);
      }
    });
  }

  it('flags none of the benign triage tickets it was not trained on, in every triage category (10 each), and at most 1% of all of them', () => {
    const unseen = TRIAGE_DATASET.filter((t, i) => !isOrdinaryTrainingIndex(i) && !readsAsRisk(t.title, t.body));
    for (const category of TRIAGE_CATEGORIES) {
      const sample = unseen.filter((t) => t.category === category).slice(0, 10);
      assert.equal(sample.length, 10);
      for (const t of sample) {
        const a = assessor.assess(ticketText(t.title, t.body));
        assert.equal(a.signal, null, `${category} "${t.title}": ${JSON.stringify(a)}`);
      }
    }
    const flagged = unseen.filter((t) => assessor.assess(ticketText(t.title, t.body)).signal !== null);
    assert.ok(flagged.length <= unseen.length * 0.01, `${flagged.length} of ${unseen.length}: ${flagged.map((t) => t.title).join('; ')}`);
  });

  it('keeps ordinary billing and account questions and an empty text at none', () => {
    for (const [title, body] of [
      ['Charged twice', 'I see two charges for my order, can you refund one?'],
      ['Reset password', 'How do I reset my password? The email does not arrive.'],
      ['', ''],
    ]) {
      assert.equal(assessor.assess(ticketText(title, body)).signal, null, title);
    }
  });

  it('is deterministic: the same text gets the same answer, from a freshly trained model too', () => {
    const text = ticketText('My account was hacked', 'Someone changed my password and email.');
    const first = assessor.assess(text);
    assert.deepEqual(assessor.assess(text), first);
    const fresh = createRiskAssessor({ classifier: trainClassifier(RISK_DATASET, { labelSet: RISK_LABEL_SET }) });
    assert.deepEqual(fresh.assess(text), first);
  });

  it('the cross-validation behind the threshold: accuracy and, at the threshold, precision and the false-positive rate on ordinary text', () => {
    const folds = crossValidate(RISK_DATASET, 5, 'bayes', RISK_LABEL_SET);
    assert.ok(folds.every((a) => a > 0.6), JSON.stringify(folds));
    const [atThreshold] = thresholdSweep([RISK_THRESHOLD]);
    assert.ok(atThreshold.falsePositiveRate <= 0.01, JSON.stringify(atThreshold));
    assert.ok(atThreshold.precision >= 0.95, JSON.stringify(atThreshold));
    assert.ok(atThreshold.recall >= 0.6, JSON.stringify(atThreshold));
  });
});
