// The step key of a caller's change in both ticket workflows (docs/workflows.md, "Step
// keys"): the Update's id, the same on every retry of the task that runs it (and a client may
// choose it), so a change stored by a task that was then lost is found under it. Read it
// synchronously as the handler starts: inside the change lock's callback the Update's
// context is not guaranteed.
import { currentUpdateInfo } from '@temporalio/workflow';

/** `update:<Update id>` of the Update whose handler or validator is running. */
export const thisUpdateKey = (): string => `update:${currentUpdateInfo()!.id}`;
