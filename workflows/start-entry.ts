// A workflow's entry in the workflow-start outbox as its contract builds it
// (ticketWorkflowStart, campaignWorkflowStart, trialRequestWorkflowStart): the shape of
// db/repositories/workflow-starts.ts `OutboxStart`, declared here because workflow code
// never imports db/ (the contracts are part of the workflow bundle's imports).
export interface WorkflowStartEntry<Input> {
  workflowId: string;
  workflowType: string;
  taskQueue: string;
  args: [Input];
  /** none on servers without our search attributes (config `temporalSearchAttributes`) */
  searchAttributes?: Record<string, string[]>;
}
