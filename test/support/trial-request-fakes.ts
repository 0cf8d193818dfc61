// In-memory activities of the trial request workflow (workflows/onboarding/contract.ts)
// that record what they were asked and when, for its time-skipping test and its history
// recorder; the company's end and status behave as the database's (domain/onboarding).
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { TrialRequestActivities } from '../../workflows/onboarding/contract';

const DAY = 86_400_000;

/** One activity call: its name, its input and the workflow time it was scheduled at. */
export interface TrialCall {
  name: keyof TrialRequestActivities;
  at: number;
  input: any;
}

/** What the fakes hold of one request: its calls, and the company as the database would. */
export interface TrialFake {
  calls: TrialCall[];
  trialEndsAt: number;
  companyStatus: 'trial' | 'trial_expired';
  /** provisionTrial refuses with this failure type once */
  refuseProvision?: string;
  /** provisionTrial waits for this */
  gate?: Promise<void>;
}

type Act = TrialRequestActivities;

/** The fakes over one map of requests; `track` registers a request before its workflow starts. */
export function fakeTrialActivities() {
  const fakes = new Map<string, TrialFake>();
  // whose token an id is (expireSetupToken names only the token)
  const tokenOwner = new Map<string, string>();
  const requestOf = (input: { requestId?: string; tokenId?: string }) => input.requestId ?? tokenOwner.get(input.tokenId!)!;

  function recorded<K extends keyof Act>(name: K, body: (f: TrialFake, input: Parameters<Act[K]>[0]) => ReturnType<Act[K]>): (input: Parameters<Act[K]>[0]) => ReturnType<Act[K]> {
    return (input) => {
      const f = fakes.get(requestOf(input))!;
      f.calls.push({ name, at: Context.current().info.scheduledTimestampMs, input });
      return body(f, input);
    };
  }

  const activities: TrialRequestActivities = {
    provisionTrial: recorded('provisionTrial', async (f, input) => {
      await f.gate;
      if (f.refuseProvision) {
        const type = f.refuseProvision;
        f.refuseProvision = undefined;
        throw ApplicationFailure.nonRetryable('An account with this email exists', type);
      }
      f.trialEndsAt = Date.parse(input.trialEndsAt);
      return { status: 'Approved' as const, companyId: 'company', ownerId: 'owner', trialEndsAt: input.trialEndsAt };
    }),
    rejectTrialRequest: recorded('rejectTrialRequest', async () => undefined),
    issueSetupToken: recorded('issueSetupToken', async (_f, { requestId, tokenId, expiresAt }) => {
      tokenOwner.set(tokenId, requestId);
      return { tokenId, expiresAt };
    }),
    sendSetupEmail: recorded('sendSetupEmail', async () => ({ state: 'sent' as const, provider: 'smtp', messageId: 'm1' })),
    expireSetupToken: recorded('expireSetupToken', async () => undefined),
    sendTrialReminder: recorded('sendTrialReminder', async () => undefined),
    expireTrial: recorded('expireTrial', async (f, { at }) => {
      const expired = f.companyStatus === 'trial' && f.trialEndsAt <= Date.parse(at);
      if (expired) f.companyStatus = 'trial_expired';
      return { expired, trialEndsAt: new Date(f.trialEndsAt).toISOString() };
    }),
    extendTrial: recorded('extendTrial', async (f, { days, at }) => {
      f.trialEndsAt = Math.max(f.trialEndsAt, Date.parse(at)) + days * DAY;
      f.companyStatus = 'trial';
      return { trialEndsAt: new Date(f.trialEndsAt).toISOString() };
    }),
  };

  function track(requestId: string, o: Partial<TrialFake> = {}): TrialFake {
    const f: TrialFake = { calls: [], trialEndsAt: 0, companyStatus: 'trial', ...o };
    fakes.set(requestId, f);
    return f;
  }
  return { activities, track };
}
