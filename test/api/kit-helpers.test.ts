// The kit's small helpers as pure units (docs/api-kit.md): the row-if-visible lookup and
// what it lets through, the cursor page, timestamps, and the zod fields' messages.
import assert from 'node:assert/strict';
import { AppError, errors } from '../../api/kit/errors';
import { allowedUnless, visibleRow } from '../../api/kit/visible-row';
import { cursorPage } from '../../api/kit/pagination';
import { iso, isoOrNull } from '../../api/kit/dates';
import { email, looksLikeId, text, trimmedText } from '../../api/kit/fields';
import { liveRow } from '../../db/soft-delete';

const gone = () => errors.notFound('thing_not_found', 'No thing');
const down = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('visibleRow', () => {
  it('the row when it exists and the caller may use it', async () => {
    assert.deepEqual(await visibleRow(Promise.resolve({ id: 'a' }), () => true, gone), { id: 'a' });
    assert.deepEqual(await visibleRow({ id: 'b' }, async () => true, gone), { id: 'b' });
  });

  it('the 404 for no row (also null for an id that cannot be ours) and for a refusal', async () => {
    for (const attempt of [
      visibleRow(Promise.resolve(null), () => true, gone),
      visibleRow(null, () => true, gone),
      visibleRow({ id: 'a' }, () => false, gone),
      visibleRow({ id: 'a' }, () => allowedUnless(403, () => Promise.reject(errors.forbidden())), gone),
    ]) {
      await assert.rejects(attempt, (e: AppError) => e.status === 404 && e.code === 'thing_not_found');
    }
  });

  it('a failing lookup or access check passes through, never as the 404', async () => {
    await assert.rejects(visibleRow(Promise.reject(down()), () => true, gone), { code: 'ECONNREFUSED' });
    await assert.rejects(visibleRow({ id: 'a' }, () => Promise.reject(down()), gone), { code: 'ECONNREFUSED' });
    // a refusal other than the one that means "not yours" is not swallowed either
    await assert.rejects(
      visibleRow({ id: 'a' }, () => allowedUnless(404, () => Promise.reject(errors.forbidden('another app'))), gone),
      (e: AppError) => e.status === 403,
    );
  });
});

describe('cursorPage', () => {
  const cursorAfter = (n: number) => `after-${n}`;
  it('limit + 1 rows: the first limit shown, more follow, the cursor after the last shown', () => {
    assert.deepEqual(cursorPage([1, 2, 3], 2, cursorAfter), { rows: [1, 2], hasMore: true, nextCursor: 'after-2' });
  });
  it('limit rows or fewer: the last page, no cursor', () => {
    assert.deepEqual(cursorPage([1, 2], 2, cursorAfter), { rows: [1, 2], hasMore: false, nextCursor: null });
    assert.deepEqual(cursorPage([], 2, cursorAfter), { rows: [], hasMore: false, nextCursor: null });
  });
});

describe('timestamps', () => {
  it('a Date and a string come out the same; null and undefined stay null', () => {
    const at = new Date('2026-11-27T06:40:00Z');
    assert.equal(iso(at), '2026-11-27T06:40:00.000Z');
    assert.equal(iso('2026-11-27T07:40:00+01:00'), '2026-11-27T06:40:00.000Z');
    assert.equal(isoOrNull(at), '2026-11-27T06:40:00.000Z');
    assert.equal(isoOrNull(null), null);
    assert.equal(isoOrNull(undefined), null);
  });
});

describe('fields', () => {
  const messages = (schema: { safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ message: string }> } } }, v: unknown) => {
    const r = schema.safeParse(v);
    return r.success ? [] : r.error!.issues.map((i) => i.message);
  };

  it('text: the bound, and blank refused only when asked', () => {
    assert.deepEqual(messages(text(3), 'abcd'), ['must be at most 3 characters']);
    assert.deepEqual(messages(text(3), ''), []);
    assert.deepEqual(messages(text(3, { required: true }), ''), ['must not be empty', 'must not be blank']);
    assert.deepEqual(messages(text(3, { required: true }), '  '), ['must not be blank']);
    assert.deepEqual(messages(text(3, { notBlank: true }), ''), ['must not be blank']);
  });

  it('trimmedText trims before its bounds; email and prefixed ids', () => {
    assert.equal(trimmedText(3).parse('  ab  '), 'ab');
    assert.deepEqual(messages(trimmedText(3), '   '), ['must not be blank']);
    assert.deepEqual(messages(email(), 'nope'), ['must be a valid email address']);
    assert.equal(looksLikeId('kpl_01abc', 'kpl'), true);
    assert.equal(looksLikeId('agt_01abc', 'kpl'), false);
    assert.equal(looksLikeId(`kpl_${'a'.repeat(61)}`, 'kpl'), false);
  });
});

describe('soft delete', () => {
  it('one spelling of a live row, as the partial indexes have it', () => {
    assert.equal(liveRow('e'), 'e.deleted_at IS NULL');
    assert.equal(liveRow('p', 'erased_at'), 'p.erased_at IS NULL');
  });
});
