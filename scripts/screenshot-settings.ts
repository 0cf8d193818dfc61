// The settings pages' entries of `npm run screenshots` (scripts/screenshot-pages.ts lists
// them): the sign-in page, and each workspace's page signed in with the demo credentials
// through a session of `POST /settings/session` (docs/settings.md). The ticketing shot
// seeds one webhook endpoint of the demo workspace so that a card shows; an API that
// refuses it (no public DNS where the script runs) leaves the empty state, which is a
// page worth seeing too.
import type { DemoCredentials, Shot, ShotContext } from './screenshot-pages';

const DEMO_ENDPOINT = { url: 'https://hooks.example.com/support/tickets', description: 'Demo: the support bridge', events: ['ticket.created', 'ticket.resolved'] };

// screenshot-pages.ts imports this file, so its settingsSession is not imported back
function session(body: (creds: DemoCredentials) => Record<string, string>) {
  return async (ctx: ShotContext): Promise<void> => {
    const res = await ctx.context.request.post(`${ctx.baseUrl}/settings/session`, { data: body(ctx.creds) });
    if (res.status() !== 201) throw new Error(`POST /settings/session answered ${res.status()}: ${await res.text()}`);
  };
}

/** The demo endpoint, once: a run again finds it by its description. */
async function seedEndpoint(ctx: ShotContext): Promise<{ path: string }> {
  const { workspaceId, apiKey } = ctx.creds.ticketing;
  const auth = { authorization: `Bearer ${apiKey}` };
  const listed = await ctx.call('GET', `/v1/webhooks?workspaceId=${encodeURIComponent(workspaceId)}`, undefined, auth);
  const known = listed.status === 200 && listed.body.data.some((e: { description: string }) => e.description === DEMO_ENDPOINT.description);
  if (!known) await ctx.call('POST', '/v1/webhooks', { workspaceId, ...DEMO_ENDPOINT }, { ...auth, 'idempotency-key': `screenshots-endpoint-${workspaceId}` });
  // the bootstrap key reaches the whole organisation: the page is told the workspace
  return { path: `/settings/ticketing?workspace=${encodeURIComponent(workspaceId)}` };
}

export const SETTINGS_SHOTS: Shot[] = [
  { name: 'settings-sign-in', path: '/settings', ready: '#sign-in-section:not([hidden])' },
  {
    name: 'settings-ticketing',
    path: '/settings/ticketing',
    prepare: seedEndpoint,
    signIn: session((c) => ({ api: 'ticketing', credential: c.ticketing.apiKey })),
    ready: '#keys tbody tr',
  },
  {
    name: 'settings-platform',
    path: '/settings/platform',
    signIn: session((c) => ({ api: 'platform', credential: c.platform.adminToken })),
    ready: '#tokens tbody tr',
  },
];
