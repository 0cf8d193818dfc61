// What the no-op peer's driver knows about its workflow (like workflows/ticket/contract.ts).
import { defineUpdate } from '@temporalio/workflow';

export const NOOP_QUEUE = 'bench-noop';
export const NOOP_WORKFLOW_TYPE = 'benchNoopWorkflow';
export const NOOP_LOCAL_WORKFLOW_TYPE = 'benchNoopLocalWorkflow';
export const startedUpdate = defineUpdate<string>('started');
