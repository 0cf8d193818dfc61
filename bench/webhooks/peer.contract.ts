// What the Temporal peer's driver knows about its workflows (like workflows/*/contract.ts).
export const WH_PEER_QUEUE = 'bench-webhooks-peer';
export const WH_PEER_WORKFLOW_TYPE = 'benchWebhookPeerWorkflow';
export const WH_PEER_LOCAL_WORKFLOW_TYPE = 'benchWebhookPeerLocalWorkflow';
