// The workflows of the `onboarding` task queue, and only them: its workers bundle this
// file (workers/queue-onboarding.ts).
export { trialRequestWorkflow } from '../onboarding/trial-request.workflow';
