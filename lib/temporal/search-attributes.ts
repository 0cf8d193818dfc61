// The custom search attributes of our workflows (all Keyword), in one list: `npm start`,
// the test services (scripts/test.sh) and the benchmark stacks register exactly these, so
// a workflow never sets one the server does not know.
//   WorkspaceId, TicketStatus, TicketPriority: ticket workflows (ticketing)
//   PushAppId, CampaignStatus: campaign workflows (push)
//   TrialStatus: trial request workflows (onboarding)
export const SEARCH_ATTRIBUTES = ['WorkspaceId', 'TicketStatus', 'TicketPriority', 'PushAppId', 'CampaignStatus', 'TrialStatus'] as const;

export type SearchAttributeName = (typeof SEARCH_ATTRIBUTES)[number];
