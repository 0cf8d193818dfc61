import { allHandlersFinished, condition, proxyActivities, setHandler } from '@temporalio/workflow';
import { platformConflict, platformGone } from '../../domain/platform/errors';
import { daysAfter, isWithin, USER_REACTIVATION_DAYS } from '../../domain/platform/windows.rules';
import { asRefusal } from '../refusal';
import {
  deactivationStateQuery,
  reactivateUpdate,
  type DeactivationInput,
  type DeactivationResult,
  type DeactivationState,
  type PlatformUserActivities,
} from './contract';

const acts = proxyActivities<PlatformUserActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});
// Unassigning may send thousands of Updates: a long step that beats after every few, so a
// dead worker's attempt is taken over within seconds and goes on from its last beat.
const unassigning = proxyActivities<PlatformUserActivities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * One per deactivation of a user (`user-deactivation/<usr_id>`, then `…/<n>`), started
 * from the outbox in the transaction that deactivated them. Its state table:
 *
 * | state        | accepts                                   | timers                         |
 * |--------------|-------------------------------------------|--------------------------------|
 * | unassigning  | reactivate (runs once unassigning is done) | —                              |
 * | waiting      | reactivate                                | erasure at deactivated_at + 90 d |
 * | reactivating | nothing (409)                             | —                              |
 * | reactivated  | run ends                                  | —                              |
 * | erasing      | nothing (410)                             | —                              |
 * | erased       | run ends                                  | —                              |
 *
 * Unassigning: an Update (`unassignUserUpdate`) per open ticket to its own workflow, all
 * sent by one heartbeating activity in pages (the history holds one step, not one per
 * ticket); the ticket workflow stays the only writer of its row.
 */
export async function userDeactivationWorkflow(input: DeactivationInput): Promise<DeactivationResult> {
  const closesAt = daysAfter(new Date(input.deactivatedAt), USER_REACTIVATION_DAYS);
  let state: DeactivationState = 'unassigning';
  let unassignedDone = false;
  const who = { userId: input.userId, deactivation: input.deactivation };

  setHandler(deactivationStateQuery, () => state);
  setHandler(
    reactivateUpdate,
    async () => {
      state = 'reactivating';
      await condition(() => unassignedDone);
      const status = await acts.reactivatePlatformUser({ ...who, at: new Date().toISOString() });
      state = status ? 'reactivated' : 'waiting';
      if (!status) throw asRefusal(platformConflict(`User '${input.userId}' is not deactivated`));
      return { userId: input.userId, status };
    },
    {
      validator: () => {
        if (state === 'erasing' || state === 'erased' || !isWithin(new Date(), closesAt)) {
          throw asRefusal(platformGone(`User '${input.userId}' was deactivated more than ${USER_REACTIVATION_DAYS} days ago; their personal data is erased`));
        }
        if (state === 'reactivating' || state === 'reactivated') throw asRefusal(platformConflict(`User '${input.userId}' is being reactivated`));
      },
    },
  );

  // one step for all the user's open tickets, however many: the history stays a few events
  const { unassigned, skipped } = await unassigning.unassignOpenTicketsOfUser(input.userId);
  unassignedDone = true;
  if (state === 'unassigning') state = 'waiting';

  for (;;) {
    const left = closesAt.getTime() - Date.now();
    if (left <= 0 || !(await condition(() => state !== 'waiting', left))) break;
    await condition(() => state !== 'reactivating');
    if ((state as DeactivationState) === 'reactivated') {
      await condition(allHandlersFinished);
      return { outcome: 'reactivated', unassigned, skipped };
    }
  }
  state = 'erasing';
  const erased = await acts.erasePlatformUser({ ...who, at: closesAt.toISOString() });
  state = 'erased';
  await condition(allHandlersFinished);
  return { outcome: erased ? 'erased' : 'gone', unassigned, skipped };
}
