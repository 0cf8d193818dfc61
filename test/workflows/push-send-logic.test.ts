// The send workflow's pure decisions: pages of at most FCM's sendEach limit, when a send
// is over, and counts that add up across pages (and continued runs).
import assert from 'node:assert/strict';
import { addPage, isLastPage, NO_TOTALS, PUSH_PAGE_SIZE } from '../../workflows/push-send/push-send.logic';

describe('push send logic', () => {
  it('pages hold at most 500 devices (FCM sendEach)', () => {
    assert.ok(PUSH_PAGE_SIZE <= 500);
  });

  it('a page with rows after it is not the last; a full page without any is; so is an empty one', () => {
    assert.equal(isLastPage({ sent: 500, failed: 0, rows: 500, lastPosition: 499, more: true }), false);
    assert.equal(isLastPage({ sent: 500, failed: 0, rows: 500, lastPosition: 999, more: false }), true);
    assert.equal(isLastPage({ sent: 3, failed: 1, rows: 4, lastPosition: 503, more: false }), true);
    assert.equal(isLastPage({ sent: 0, failed: 0, rows: 0, lastPosition: null, more: false }), true);
  });

  it('totals add sent, failed and pages', () => {
    const t = addPage(addPage(NO_TOTALS, { sent: 499, failed: 1, rows: 500, lastPosition: 499, more: true }), { sent: 2, failed: 0, rows: 2, lastPosition: 501, more: false });
    assert.deepEqual(t, { sent: 501, failed: 1, pages: 2 });
  });
});
