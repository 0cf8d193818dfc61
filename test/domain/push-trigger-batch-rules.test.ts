// How the firing dispatcher groups firings into batches (domain/push/trigger-batch.rules.ts):
// every firing due at once together, the others by the second they are due in.
import assert from 'node:assert/strict';
import { groupFirings } from '../../domain/push/trigger-batch.rules';

const f = (id: string, sendAtMs: number, atOnce = false) => ({ id, sendAtMs, atOnce });

test('due-at-once firings form one group whatever their times; delayed ones group by due second', () => {
  const groups = groupFirings([f('a', 1_000_100, true), f('b', 1_000_900, true), f('c', 61_000_000), f('d', 61_000_999), f('e', 61_001_000), f('g', 2_000_050, true)]);
  assert.deepEqual(groups.map((g) => g.map((x) => x.id)), [['a', 'b', 'g'], ['c', 'd'], ['e']]);
});

test('no firings, no groups', () => {
  assert.deepEqual(groupFirings([]), []);
});
