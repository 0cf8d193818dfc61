// lib/map-limited.ts: results in the items' order, never more than `limit` calls in
// flight, and the first failure rejects.
import assert from 'node:assert/strict';
import { mapLimited } from '../../lib/map-limited';

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('every item once, the results in order, at most `limit` in flight', async () => {
  let inFlight = 0;
  let most = 0;
  const out = await mapLimited([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
    inFlight++;
    most = Math.max(most, inFlight);
    for (let i = 0; i < n; i++) await tick(); // finish out of order
    inFlight--;
    return n * 10;
  });
  assert.deepEqual(out, [50, 10, 40, 20, 30, 0, 60]);
  assert.equal(most, 3);
});

test('an empty list makes no call; the first failure rejects', async () => {
  assert.deepEqual(await mapLimited([], 4, async () => assert.fail('called')), []);
  await assert.rejects(
    mapLimited([1, 2, 3], 2, async (n) => {
      if (n === 2) throw new Error('two');
      return n;
    }),
    /two/,
  );
});
