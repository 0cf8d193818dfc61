// A ticket body may be 100 k characters of one "word" (pasted logs, keyboard mashing):
// triage must not stem it (the Porter stemmer is quadratic in word length and blocked
// the ticketing worker for about a minute on such a body).
import assert from 'node:assert/strict';
import { contentStems } from '../../activities/triage/text-features';
import { createTriager } from '../../activities/triage/triager';

describe('triage of very long words', () => {
  it('leaves words over 40 characters unstemmed', () => {
    const long = 'x'.repeat(100_000);
    assert.deepEqual(contentStems(['crashes', long]), ['crash', long]);
  });

  it('triages a 100 k-character single-word body', async () => {
    const result = await createTriager({}).triage({ title: 'Help', body: 'x'.repeat(100_000), category: null });
    assert.equal(typeof result.category, 'string');
  }, 20_000);
});
