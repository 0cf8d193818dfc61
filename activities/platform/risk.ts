// The risk activity of the platform ticket workflow (workflows/platform-ticket/risk.ts): the
// domain command with the local risk model (activities/triage/risk.ts), trained once per
// process on first use. A classifier or database error is thrown as it is: retried by the
// workflow's activity policy.
import type { Db } from '../../db/db';
import { assessPlatformRisk, type PlatformRiskAssessor } from '../../domain/platform/record-risk-signal';
import type { PlatformRiskActivities } from '../../workflows/platform-ticket/contract';
import { createRiskAssessor, type RiskAssessor } from '../triage/risk';
import { ticketText } from '../triage/text-features';
import { withDomainFailures } from '../failures';

/** The domain's view of the risk model: text in, a signal (or null), its confidence and the model out. */
export function platformRiskAssessor(assessor: RiskAssessor = createRiskAssessor()): PlatformRiskAssessor {
  return {
    assess({ title, body }) {
      const { signal, confidence, model } = assessor.assess(ticketText(title, body));
      return { signal, confidence, model };
    },
  };
}

export function createPlatformRiskActivities({ db, assessor = platformRiskAssessor() }: { db: Db; assessor?: PlatformRiskAssessor }): PlatformRiskActivities {
  return withDomainFailures<PlatformRiskActivities>({
    assessPlatformRisk: (input) => assessPlatformRisk(db, assessor, input, new Date()),
  });
}
