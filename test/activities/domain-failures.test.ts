// A domain refusal crosses each boundary in one place: under Temporal it becomes a
// non-retryable ApplicationFailure whose type is its code (activities/failures.ts), over
// HTTP a status from its kind with its code and message (api/kit/error-middleware.ts).
// Anything that is not a DomainError passes through both untouched.
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { toActivityFailure, withDomainFailures } from '../../activities/failures';
import { fromDomainError } from '../../api/kit/error-middleware';
import { DomainError, fromRefusal } from '../../domain/errors';

describe('a DomainError under Temporal', () => {
  it('is a non-retryable ApplicationFailure: type = code, details = [{ kind, details }]', () => {
    const failure = toActivityFailure(new DomainError('quota_exceeded', 'ticket_quota_exceeded', 'Monthly ticket quota of 100 reached', { limit: 100 }));
    assert.ok(failure instanceof ApplicationFailure);
    assert.equal(failure.type, 'ticket_quota_exceeded');
    assert.equal(failure.message, 'Monthly ticket quota of 100 reached');
    assert.equal(failure.nonRetryable, true);
    assert.deepEqual(failure.details, [{ kind: 'quota_exceeded', details: { limit: 100 } }]);
  });

  it('reads back as the same DomainError (fromRefusal); a failure without a kind is not one', () => {
    const failure = toActivityFailure(new DomainError('conflict', 'campaign_finished', 'done', { id: 'c1' })) as ApplicationFailure;
    const back = fromRefusal(failure.type, failure.message, failure.details);
    assert.ok(back instanceof DomainError);
    assert.deepEqual([back.kind, back.code, back.message, back.details], ['conflict', 'campaign_finished', 'done', { id: 'c1' }]);
    assert.equal(fromRefusal('ticket_quota_exceeded', 'x', [{ limit: 100 }]), null);
    assert.equal(fromRefusal(null, 'x', [{ kind: 'conflict' }]), null);
  });

  it('anything else passes unchanged (a dropped connection stays retryable)', () => {
    const err = new Error('connection reset');
    assert.equal(toActivityFailure(err), err);
  });

  it('withDomainFailures wraps every activity of a factory, results and other errors unchanged', async () => {
    const boom = new Error('socket hang up');
    const acts = withDomainFailures({
      ok: async (n: number) => n + 1,
      refuses: async () => {
        throw new DomainError('not_found', 'player_not_found', 'Player p does not exist');
      },
      breaks: async () => {
        throw boom;
      },
    });
    assert.equal(await acts.ok(1), 2);
    await assert.rejects(acts.refuses(), (e: unknown) => e instanceof ApplicationFailure && e.type === 'player_not_found' && e.nonRetryable);
    await assert.rejects(acts.breaks(), (e: unknown) => e === boom);
  });
});

describe('a DomainError over HTTP', () => {
  it('takes its status from its kind and keeps its code and message', () => {
    const cases: Array<[DomainError['kind'], number]> = [
      ['invalid', 400],
      ['forbidden', 403],
      ['not_found', 404],
      ['conflict', 409],
      ['unprocessable', 422],
      ['quota_exceeded', 429],
    ];
    for (const [kind, status] of cases) {
      const err = fromDomainError(new DomainError(kind, `some_${kind}`, `refused: ${kind}`));
      assert.equal(err.status, status, kind);
      assert.equal(err.code, `some_${kind}`);
      assert.equal(err.message, `refused: ${kind}`);
    }
  });
});
