// The risk model (activities/triage/risk.ts, docs/triage.md "Risk signals"): risk-worded texts
// of each label, written here and not in its dataset, are flagged with their label at or above
// the threshold; benign tickets of every triage category it was not trained on are not; the
// same text gets the same answer; the cross-validation behind the threshold holds. With an
// OpenAI-compatible endpoint (a real HTTP server on 127.0.0.1): its valid answer is taken,
// anything else falls back to the local model.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { TRIAGE_CATEGORIES } from '../../activities/triage/categories';
import { TRIAGE_DATASET } from '../../activities/triage/dataset';
import { trainClassifier } from '../../activities/triage/classifier';
import { crossValidate } from '../../activities/triage/evaluate';
import { assessLocally, createRiskAssessor, RISK_LABEL_SET, RISK_MODEL_ID, RISK_THRESHOLD, type RiskSignal } from '../../activities/triage/risk';
import { isOrdinaryTrainingIndex, RISK_DATASET, readsAsRisk } from '../../activities/triage/risk-dataset';
import { thresholdSweep } from '../../activities/triage/risk-evaluate';
import { ticketText } from '../../activities/triage/text-features';

const assessor = { assess: (text: string) => assessLocally(text) };

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

  it('is deterministic: the same text gets the same answer, from a freshly trained model too (createRiskAssessor without OpenAI: the local model)', async () => {
    const text = ticketText('My account was hacked', 'Someone changed my password and email.');
    const first = assessor.assess(text);
    assert.deepEqual(assessor.assess(text), first);
    const fresh = createRiskAssessor({ classifier: trainClassifier(RISK_DATASET, { labelSet: RISK_LABEL_SET }) });
    assert.deepEqual(await fresh.assess(text), first);
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

describe('risk model with an OpenAI-compatible endpoint', () => {
  type Behaviour = 'fraud' | 'none' | 'unsure' | 'error500' | 'badLabel' | 'badConfidence' | 'stall';
  let server: http.Server;
  let baseUrl = '';
  let behaviour: Behaviour = 'fraud';
  const received: any[] = [];
  const completion = (content: unknown) => JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(content) } }] });

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        received.push(JSON.parse(raw));
        const send = (status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);
        if (behaviour === 'fraud') send(200, completion({ label: ' Fraud ', confidence: 0.93 }));
        if (behaviour === 'none') send(200, completion({ label: 'none', confidence: 0.99 }));
        if (behaviour === 'unsure') send(200, completion({ label: 'abuse', confidence: 0.5 }));
        if (behaviour === 'error500') send(500, '{}');
        if (behaviour === 'badLabel') send(200, completion({ label: 'spam', confidence: 0.9 }));
        if (behaviour === 'badConfidence') send(200, completion({ label: 'fraud', confidence: 7 }));
        // 'stall': never answers
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const fallbacks: string[] = [];
  const remote = (timeoutMs = 10_000) =>
    createRiskAssessor({ openai: { baseUrl, model: 'test-model', timeoutMs }, onFallback: (reason) => fallbacks.push(reason) });
  const hacked = ticketText('My account was hacked', 'Someone hacked my account, changed my password and email, and now I cannot log in.');

  it("takes the endpoint's valid answer (label, confidence, model openai:<model>); below the threshold or none is no signal; the text goes in as data", async () => {
    behaviour = 'fraud';
    assert.deepEqual(await remote().assess(hacked), { signal: 'fraud', label: 'fraud', confidence: 0.93, model: 'openai:test-model' });
    assert.equal(received.at(-1).model, 'test-model');
    assert.match(received.at(-1).messages[1].content, /My account was hacked/);
    behaviour = 'none';
    assert.equal((await remote().assess(hacked)).signal, null);
    behaviour = 'unsure';
    assert.deepEqual(await remote().assess(hacked), { signal: null, label: 'abuse', confidence: 0.5, model: 'openai:test-model' });
  });

  for (const [failure, reason] of [
    ['error500', /HTTP 500/],
    ['badLabel', /invalid label/],
    ['badConfidence', /invalid confidence/],
    ['stall', /timed out after 300 ms/],
  ] as const) {
    it(`falls back to the local model on ${failure}`, async () => {
      behaviour = failure;
      fallbacks.length = 0;
      const a = await remote(300).assess(hacked);
      assert.deepEqual(a, { ...assessLocally(hacked), model: `${RISK_MODEL_ID}(fallback)` });
      assert.equal(a.signal, 'account_compromise');
      assert.match(fallbacks[0], reason);
    });
  }
});
