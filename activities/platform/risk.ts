// The risk activity of the platform ticket workflow (workflows/platform-ticket/risk.ts): the
// domain command with the risk model (activities/triage/risk.ts: the local model, trained once
// per process on first use, or triage's OpenAI-compatible endpoint first when configured).
// A classifier or database error is thrown as it is: retried by the workflow's activity policy.
import type { Db } from '../../db/db';
import { assessPlatformRisk, type PlatformRiskAssessor } from '../../domain/platform/record-risk-signal';
import type { PlatformRiskActivities } from '../../workflows/platform-ticket/contract';
import type { OpenAIConfig } from '../triage/openai';
import { createRiskAssessor, type RiskAssessor } from '../triage/risk';
import { ticketText } from '../triage/text-features';
import { logger } from '../../lib/logger';
import { withDomainFailures } from '../failures';

/** The domain's view of the risk model: text in, a signal (or null), its confidence and the model out. */
export function platformRiskAssessor(assessor: RiskAssessor = createRiskAssessor()): PlatformRiskAssessor {
  return {
    async assess({ title, body }) {
      const { signal, confidence, model } = await assessor.assess(ticketText(title, body));
      return { signal, confidence, model };
    },
  };
}

export interface PlatformRiskDeps {
  db: Db;
  /** the triage endpoint (lib/config.ts triageOpenAi): asked first when set, the local model otherwise and on any failure */
  openai?: OpenAIConfig;
  /** replaces the whole model (tests) */
  assessor?: PlatformRiskAssessor;
}

export function createPlatformRiskActivities({ db, openai, assessor }: PlatformRiskDeps): PlatformRiskActivities {
  const risk =
    assessor ?? platformRiskAssessor(createRiskAssessor({ openai, onFallback: (reason) => logger.warn({ reason }, 'risk: OpenAI failed, used the local model') }));
  return withDomainFailures<PlatformRiskActivities>({
    assessPlatformRisk: (input) => assessPlatformRisk(db, risk, input, new Date()),
  });
}
