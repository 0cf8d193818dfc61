// The pages `npm run screenshots` shoots (scripts/screenshots.ts), one PNG each under
// docs/screenshots/<name>.png, shown in the README ("The pages"). A page is added with one
// entry: how to sign in (through the page's own form, or a session from
// `POST /settings/session`), what to seed through the public APIs so it looks real, and
// what to wait for before the shot.
import type { BrowserContext, Page } from 'playwright-core';
import { SETTINGS_SHOTS } from './screenshot-settings';

/** What `npm run -s admin -- bootstrap` prints (the parts the shots use). */
export interface DemoCredentials {
  ticketing: { organizationId: string; workspaceId: string; apiKey: string };
  push: { email: string; password: string; superAdminEmail: string; superAdminPassword: string };
  platform: { organizationId: string; workspaceId: string; adminToken: string };
}

export interface ApiAnswer {
  status: number;
  body: any;
}

export interface ShotContext {
  baseUrl: string;
  creds: DemoCredentials;
  page: Page;
  context: BrowserContext;
  /** A call to the running API (not through the page), JSON in and out. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer>;
}

export interface Shot {
  /** The file name without .png, and the README's alt text after "The " */
  name: string;
  /** Where the page is, on the API host; `prepare` may answer another one. */
  path: string;
  /** Signs the browser in before `path` is opened (after `prepare`). */
  signIn?: (ctx: ShotContext) => Promise<void>;
  /** Seeds what the page shows, through the public APIs; may answer the path to open. */
  prepare?: (ctx: ShotContext) => Promise<void | { path: string }>;
  /** A selector that is visible once the page shows its data. */
  ready: string;
}

/**
 * A settings session (`POST /settings/session`, docs of the settings pages) in the
 * browser's cookie jar, e.g. for a ticketing page:
 * `signIn: settingsSession((c) => ({ api: 'ticketing', credential: c.ticketing.apiKey }))`,
 * or `{ api: 'platform', credential: c.platform.adminToken }`.
 */
export function settingsSession(body: (creds: DemoCredentials) => Record<string, string>) {
  return async (ctx: ShotContext): Promise<void> => {
    const res = await ctx.context.request.post(`${ctx.baseUrl}/settings/session`, { data: body(ctx.creds) });
    if (res.status() !== 201) throw new Error(`POST /settings/session answered ${res.status()}: ${await res.text()}`);
  };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function operatorToken(ctx: ShotContext): Promise<string> {
  const login = await ctx.call('POST', '/api/v1/auth/login', { email: ctx.creds.push.superAdminEmail, password: ctx.creds.push.superAdminPassword });
  if (login.status !== 200) throw new Error(`the operator's sign-in answered ${login.status}: ${JSON.stringify(login.body)}`);
  return login.body.accessToken;
}

// Fixed addresses, and a request whose email is already listed is left as it is: running
// the script again shows the same rows instead of piling up new ones.
const DEMO_REQUESTS = [
  { email: 'robin@pixelforge.example', companyName: 'Pixel Forge', fullName: 'Robin Example', requestedPlanSlug: 'growth', then: 'approve' },
  { email: 'kim.nakamura@mossy-games-interactive.example', companyName: 'Mossy Games Interactive Entertainment', fullName: 'Kim Nakamura', requestedPlanSlug: 'scale', then: 'none' },
  { email: 'sam@spam.example', companyName: 'Spam Co', fullName: 'Sam Example', requestedPlanSlug: 'starter', then: 'reject' },
  { email: 'ada@lovelace-studios.example', companyName: 'Lovelace Studios', fullName: 'Ada Byron', requestedPlanSlug: 'starter', then: 'none' },
] as const;

/** Submits the demo requests and approves or rejects them; answers the approved one's id. */
async function seedTrialRequests(ctx: ShotContext): Promise<string> {
  const token = await operatorToken(ctx);
  const listed = await ctx.call('GET', '/api/v1/admin/trial-requests?pageSize=100', undefined, bearer(token));
  if (listed.status !== 200) throw new Error(`the trial-request list answered ${listed.status}: ${JSON.stringify(listed.body)}`);
  const known = new Map<string, string>(listed.body.items.map((r: { email: string; id: string }) => [r.email, r.id]));
  let approved = '';
  for (const r of DEMO_REQUESTS) {
    let id = known.get(r.email);
    if (!id) {
      const res = await ctx.call('POST', '/api/v1/trial-requests', {
        companyName: r.companyName,
        fullName: r.fullName,
        email: r.email,
        website: `https://${r.email.split('@')[1]}`,
        useCase: 'Re-engagement pushes for our games',
        expectedMonthlyNotifications: 250000,
        requestedPlanSlug: r.requestedPlanSlug,
      });
      if (res.status !== 201) throw new Error(`a trial request answered ${res.status}: ${JSON.stringify(res.body)}`);
      id = res.body.id as string;
      const decide = async (action: string, body: unknown) => {
        const d = await ctx.call('POST', `/api/v1/admin/trial-requests/${id}/${action}`, body, { ...bearer(token), 'idempotency-key': `screenshots-${action}-${id}` });
        if (d.status !== 200) throw new Error(`${action} answered ${d.status}: ${JSON.stringify(d.body)}`);
      };
      if (r.then === 'approve') await decide('approve', { planSlug: r.requestedPlanSlug, trialDays: 14 });
      if (r.then === 'reject') await decide('reject', { adminNotes: 'Not a game studio' });
    }
    if (r.then === 'approve') approved = id;
  }
  return approved;
}

/** Signs in on the operator page with its own form, as the push service's super-admin. */
async function operatorSignIn(ctx: ShotContext): Promise<void> {
  await ctx.page.goto(`${ctx.baseUrl}/admin/trial-requests`);
  await ctx.page.locator('#sign-in-email').fill(ctx.creds.push.superAdminEmail);
  await ctx.page.locator('#sign-in-password').fill(ctx.creds.push.superAdminPassword);
  await ctx.page.locator('#sign-in button[type="submit"]').click();
  await ctx.page.locator('#requests-section').waitFor({ state: 'visible' });
}

export const SHOTS: Shot[] = [
  {
    name: 'operator-trial-requests',
    path: '/admin/trial-requests',
    prepare: async (ctx) => void (await seedTrialRequests(ctx)),
    signIn: operatorSignIn,
    ready: '#requests tbody tr[data-id]',
  },
  {
    name: 'set-password',
    path: '/setup-password',
    // a fresh link for the approved demo request (it replaces the emailed one)
    prepare: async (ctx) => {
      const id = await seedTrialRequests(ctx);
      const link = await ctx.call('POST', `/api/v1/admin/trial-requests/${id}/setup-link`, {}, {
        ...bearer(await operatorToken(ctx)),
        'idempotency-key': `screenshots-link-${Date.now()}`,
      });
      if (link.status !== 200) throw new Error(`setup-link answered ${link.status}: ${JSON.stringify(link.body)}`);
      const url = new URL(link.body.setupUrl);
      return { path: url.pathname + url.search };
    },
    ready: '#form-section:not([hidden])',
  },
  // the settings pages (docs/settings.md)
  ...SETTINGS_SHOTS,
];
