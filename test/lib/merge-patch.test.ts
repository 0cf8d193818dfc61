// JSON Merge Patch (RFC 7396), the meaning of a settings PATCH: the RFC's own examples.
import assert from 'node:assert/strict';
import { mergePatch } from '../../lib/merge-patch';
import { rateOf } from '../../domain/push/analytics.rules';

describe('mergePatch', () => {
  it('replaces, adds, deletes with null and merges objects, leaving the target untouched', () => {
    const target = { a: 'b', c: { d: 'e', f: 'g' } };
    assert.deepEqual(mergePatch(target, { a: 'z', c: { f: null } }), { a: 'z', c: { d: 'e' } });
    assert.deepEqual(target, { a: 'b', c: { d: 'e', f: 'g' } });
  });

  it('arrays and scalars replace whole; a non-object target starts empty', () => {
    assert.deepEqual(mergePatch({ a: [1, 2] }, { a: [3] }), { a: [3] });
    assert.deepEqual(mergePatch(['x'], { a: 1 }), { a: 1 });
    assert.deepEqual(mergePatch(undefined, { a: { b: null, c: 1 } }), { a: { c: 1 } });
  });
});

describe('rateOf', () => {
  it('is a share of sent, 0 when nothing was sent, at most 1', () => {
    assert.equal(rateOf(3, 4), 0.75);
    assert.equal(rateOf(5, 0), 0);
    assert.equal(rateOf(7, 5), 1);
  });
});
