// Fakes of the platform ticket workflow's activities that a recorded history does not
// exercise: no automations match and the SLA deadlines are out of reach, so a recorder of
// one feature (risk, SLA, automations) writes a history with that feature's commands only.
import type { PlatformRiskActivities, PlatformTicketActivities } from '../../workflows/platform-ticket/contract';

export const NO_AUTOMATIONS: Pick<PlatformTicketActivities, 'matchPlatformAutomations'> = {
  async matchPlatformAutomations() {
    return [];
  },
};

export const FAR_SLA_DEADLINES: Pick<PlatformTicketActivities, 'readPlatformTicketSla' | 'breachPlatformTicketSla'> = {
  async readPlatformTicketSla() {
    return {
      priority: 'normal',
      dueAt: { first_response: '2099-01-01T00:00:00.000Z', resolution: '2099-01-02T00:00:00.000Z' },
      firstResponded: false,
      breached: { first_response: false, resolution: false },
    };
  },
  async breachPlatformTicketSla() {
    return { breached: false };
  },
};

export const NO_RISK: PlatformRiskActivities = {
  async assessPlatformRisk({ ticketId, replyId }) {
    return { ticketId, replyId: replyId ?? null, signal: null };
  },
};
