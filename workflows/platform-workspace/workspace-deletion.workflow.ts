import { allHandlersFinished, condition, proxyActivities, setHandler } from '@temporalio/workflow';
import { platformConflict, platformNotFound } from '../../domain/platform/errors';
import { Mutex } from '../mutex';
import { asRefusal } from '../refusal';
import { restoreUpdate, type PlatformWorkspaceActivities, type WorkspaceDeletionInput, type WorkspaceDeletionResult } from './contract';

// Database steps: idempotent, retried until the database answers; a business refusal
// (restore of a workspace that is gone) is non-retryable and fails the Update at once.
const db = proxyActivities<PlatformWorkspaceActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

type Phase = 'pending' | 'restored' | 'purging' | 'purged';

/**
 * `platform-workspace-deletion/<ws_id>/<requested ms>` (docs/platform.md, "Workspaces"):
 * one per deletion request, started from the outbox with the row marked pending_deletion.
 * Its state table:
 *
 * | state    | accepts                                         | timers               |
 * |----------|-------------------------------------------------|----------------------|
 * | pending  | restore (its activity sets the row active)      | the purge at purge_at |
 * | restored | nothing: restore is a 409; the run ends          | —                    |
 * | purging  | nothing: restore is a 404 (the data is going)    | —                    |
 * | purged   | the run ends (a later restore: the row is gone, 404) | —                |
 *
 * Restore and the purge run one at a time (a Mutex): whichever takes the lock first wins,
 * and the other sees the phase it left.
 */
export async function platformWorkspaceDeletionWorkflow(input: WorkspaceDeletionInput): Promise<WorkspaceDeletionResult> {
  const ref = { workspaceId: input.workspaceId, requestedAt: input.requestedAt };
  const s: { phase: Phase } = { phase: 'pending' };
  const oneAtATime = new Mutex();
  const refusalIn = (phase: Phase) =>
    phase === 'restored'
      ? asRefusal(platformConflict(`Workspace '${input.workspaceId}' is not scheduled for deletion`))
      : phase === 'purging' || phase === 'purged'
        ? asRefusal(platformNotFound('workspace', input.workspaceId))
        : null;

  // ── what each state accepts ──
  setHandler(
    restoreUpdate,
    ({ actorId }) =>
      oneAtATime.runExclusive(async () => {
        const refused = refusalIn(s.phase);
        if (refused) throw refused;
        const reply = await db.restorePlatformWorkspace({ ...ref, actorId });
        s.phase = 'restored';
        return reply;
      }),
    {
      validator: (_args: { actorId: string }) => {
        const refused = refusalIn(s.phase);
        if (refused) throw refused;
      },
    },
  );

  // ── pending: until purge_at, or a restore ──
  const wait = Date.parse(input.purgeAt) - Date.now();
  if (wait > 0) await condition(() => s.phase === 'restored', wait);
  // ── purging: unless a restore holds or took the lock first ──
  const result = await oneAtATime.runExclusive<WorkspaceDeletionResult>(async () => {
    if (s.phase === 'restored') return 'restored';
    s.phase = 'purging';
    const { outcome } = await db.purgePlatformWorkspace(ref);
    s.phase = 'purged';
    return outcome === 'purged' ? 'purged' : 'gone';
  });
  await condition(allHandlersFinished);
  return result;
}
