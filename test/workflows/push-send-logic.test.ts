// The send workflow's pure decisions: pages of at most FCM's sendEach limit, when a send
// is over, and counts that add up across pages (and continued runs).
import assert from 'node:assert/strict';
import { addPage, isLastPage, NO_TOTALS, PUSH_PAGE_SIZE } from '../../workflows/push-send/push-send.logic';

describe('push send logic', () => {
  it('pages hold at most 500 devices (FCM sendEach)', () => {
    assert.ok(PUSH_PAGE_SIZE <= 500);
  });

  it('a full page is not the last; a short or empty one is', () => {
    assert.equal(isLastPage({ sent: 500, failed: 0, rows: 500, lastPosition: 499 }, 500), false);
    assert.equal(isLastPage({ sent: 3, failed: 1, rows: 4, lastPosition: 503 }, 500), true);
    assert.equal(isLastPage({ sent: 0, failed: 0, rows: 0, lastPosition: null }, 500), true);
  });

  it('totals add sent, failed and pages', () => {
    const t = addPage(addPage(NO_TOTALS, { sent: 499, failed: 1, rows: 500, lastPosition: 499 }), { sent: 2, failed: 0, rows: 2, lastPosition: 501 });
    assert.deepEqual(t, { sent: 501, failed: 1, pages: 2 });
  });
});
