// The settings pages in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core) against the real API and the suite's workers (scripts/test.sh runs the
// `webhooks` worker), with a receiver on loopback that verifies the signatures with the
// secret the page showed: sign in, an API key shown once and revoked, an endpoint
// registered, a test event in its log and redelivered, test mode withholding a real
// event, a 30-day platform token created and revoked, a platform endpoint paused after
// failures shown with its reason and log, resumed and deleted, the 404 page. Every state of every
// page passes axe-core and fits a 1280-px window (page-checks.ts), and breaks no CSP.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { createApiKey } from '../support/factories';
import { platformTenant, startPlatformApi } from '../support/platform';
import { assertPageState } from '../support/page-checks';
import type { TestBrowser } from '../support/browser';
import { confirmInDialog, signIn, startSettingsBrowser, statusSays } from '../support/settings-browser';
import { createTicket, tenantWithPlayer, type TenantWithPlayer } from '../support/tickets';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { insertAttempt, insertLoggedDelivery } from '../support/webhook-factories';
import { registerPlatformEndpoint } from '../support/register-platform-endpoint';
import { pauseEndpoint } from '../../db/repositories/webhook-endpoints';

let api: TestApi;
let browser: TestBrowser;
let t: TenantWithPlayer;
let receiver: Receiver;
let secret = ''; // the signing secret as the page showed it

beforeAll(async () => {
  api = await startPlatformApi();
  t = await tenantWithPlayer(api);
  receiver = await startReceiver({ secret: () => secret });
  browser = await startSettingsBrowser();
});
afterAll(async () => {
  await browser?.close();
  await receiver?.stop();
  await api?.stop();
});
afterEach(() => browser.closePages());

const unique = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}`;
const bearerGet = (path: string, token: string) => api.request('GET', path, { token });
const activeId = (page: Page) => page.evaluate<string>("document.activeElement ? document.activeElement.id : ''");

/** Signs in with the tenant's admin key and names the workspace (the key reaches the whole organisation). */
async function ticketingPage(): Promise<{ page: Page; problems: string[] }> {
  const opened = await browser.newPage();
  await signIn(opened.page, api.baseUrl, 'ticketing', t.token);
  await opened.page.locator('#workspace-id').fill(t.workspace.id);
  await opened.page.locator('#workspace-id').press('Enter');
  await opened.page.locator('#webhook-list').waitFor({ state: 'attached' });
  return opened;
}

describe('the settings pages in the browser', () => {
  it('sign in: a wrong credential and a non-admin key are refused with the API\'s message; an admin key opens its workspace; sign out', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${api.baseUrl}/settings`);
    await page.locator('#sign-in-section').waitFor({ state: 'visible' });
    await assertPageState(page, 'the sign-in page');
    // by keyboard: the workspace choice, then the credential
    await page.keyboard.press('Tab');
    assert.equal(await activeId(page), 'api-ticketing');
    await page.keyboard.press('Tab');
    assert.equal(await activeId(page), 'credential');
    await page.keyboard.type('sk_live_' + 'x'.repeat(40));
    await page.locator('#credential').press('Enter');
    await page.locator('#sign-in-error:not(:empty)').waitFor();
    assert.equal(await page.locator('#credential').getAttribute('type'), 'password');

    const reader = await createApiKey(api.deps.db, t.org, { scopes: ['tickets:read'] });
    await page.locator('#credential').fill(reader.key);
    await page.locator('#credential').press('Enter');
    await page.locator('#sign-in-error', { hasText: 'admin credential' }).waitFor();
    await assertPageState(page, 'the sign-in page with a refusal');

    await signIn(page, api.baseUrl, 'ticketing', t.token);
    assert.match((await page.locator('#session-label').textContent()) ?? '', /\S/);
    const stored = await page.evaluate<string>('JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + document.cookie');
    assert.equal(stored.includes(t.token), false, 'the credential is kept nowhere the page can read');
    assert.equal(stored.includes('='), false, 'the session cookie is HttpOnly');
    // signed in already: /settings goes straight to the workspace
    await page.goto(`${api.baseUrl}/settings`);
    await page.waitForURL(`${api.baseUrl}/settings/ticketing`);
    await page.locator('#sign-out').click();
    await page.waitForURL(`${api.baseUrl}/settings`);
    await statusSays(page, /Signed out/);
    await page.goto(`${api.baseUrl}/settings/ticketing`);
    await page.waitForURL(`${api.baseUrl}/settings`);
    assert.deepEqual(problems, []);
  });

  it('API keys: a new key is shown once (gone after a reload); revoked after a confirmation, the API refuses it', async () => {
    const { page, problems } = await ticketingPage();
    const name = unique('CI exporter');
    await page.locator('#new-key summary').click();
    await page.locator('#key-name').fill(name);
    await page.locator('#key-scope-webhooks-manage').check();
    await page.locator('#create-key button[type="submit"]').click();
    const shown = page.locator('#new-key-secret');
    await shown.waitFor();
    const key = await shown.inputValue();
    assert.match(key, /^sk_live_/);
    assert.equal(await activeId(page), 'new-key-secret', 'focus moves to the new secret');
    assert.match((await page.locator('.secret-once').textContent()) ?? '', /you will not see it again/);
    assert.equal((await bearerGet('/v1/auth/me', key)).status, 200);
    const row = page.locator('#keys tbody tr', { hasText: name });
    assert.match((await row.textContent()) ?? '', /tickets:read, tickets:write, webhooks:manage/);
    await assertPageState(page, 'the ticketing page with a new key shown once');

    await page.reload();
    await row.waitFor();
    assert.equal(await page.locator('#new-key-secret').count(), 0);
    assert.equal((await page.content()).includes(key), false, 'the secret is gone after a reload');

    await row.getByRole('button', { name: /Revoke/ }).click();
    await confirmInDialog(page, new RegExp(`Revoke the key “${name}”`), () => assertPageState(page, 'the revoke dialog'));
    await statusSays(page, /Revoked the key/);
    await row.locator('.badge', { hasText: /^Revoked/ }).waitFor();
    assert.equal((await bearerGet('/v1/auth/me', key)).status, 401, 'the API refuses the revoked key');
    assert.deepEqual(problems, []);
  });

  it('webhooks: register an endpoint (secret once), a test event the receiver verifies, its attempt in the log, redeliver; test mode withholds real events; pause, delete', async () => {
    const { page, problems } = await ticketingPage();
    await page.locator('#webhooks-empty', { hasText: 'No webhook endpoints yet' }).waitFor();
    await page.locator('#new-webhook summary').click();
    await assertPageState(page, 'the ticketing page without endpoints, the forms open');
    await page.locator('#new-webhook summary').click();
    const url = `${receiver.url}/${'a-rather-long-path-segment-'.repeat(6)}end`;
    await page.locator('#new-webhook summary').click();
    await page.locator('#webhook-url').fill(url);
    await page.locator('#webhook-description').fill('Discord bridge');
    await page.locator('#event-ticket-resolved').check();
    await page.locator('#create-webhook button[type="submit"]').click();
    await page.locator('#new-webhook-secret').waitFor();
    secret = await page.locator('#new-webhook-secret').inputValue();
    assert.match(secret, /^whsec_/);
    const card = page.locator('article.card', { hasText: 'Discord bridge' });
    const id = (await card.getAttribute('data-id'))!;
    assert.equal(await page.locator('#webhooks-empty').isVisible(), false);
    await assertPageState(page, 'the ticketing page with a new endpoint and its secret');

    // the test-event sender: one signed event, its attempt in the log
    await page.locator(`#test-event-${id}`).selectOption('ticket.resolved');
    await page.locator(`#send-test-${id}`).click();
    await statusSays(page, /Test event delivered: the endpoint answered 200/);
    const test = receiver.of('ticket.resolved');
    assert.equal(test.length, 1);
    assert.equal(test[0].verified, true, 'signed with the secret the page showed');
    const delivery = card.locator(`.delivery[data-id="${test[0].id}"]`);
    await delivery.locator('.badge', { hasText: 'test event' }).waitFor();
    assert.match((await delivery.locator('tr[data-attempt="1"]').textContent()) ?? '', /200/);
    await assertPageState(page, 'an endpoint with its delivery log open');

    await delivery.getByRole('button', { name: /Redeliver/ }).click();
    await statusSays(page, /Redelivering/);
    await eventually(() => receiver.received(test[0].id).length === 2, { what: 'the redelivery reached the receiver' });
    await eventually(async () => {
      await card.getByRole('button', { name: 'Refresh log' }).click();
      return (await delivery.locator('tr[data-attempt="2"]').count()) === 1;
    }, { what: 'the second attempt in the log' });

    // test mode on: a real event is withheld; off again: the next one arrives
    await page.locator(`#testmode-${id}`).check();
    await statusSays(page, /Test mode is on/);
    assert.equal(await activeId(page), `testmode-${id}`, 'focus stays on the switch');
    assert.equal((await bearerGet(`/v1/webhooks/${id}`, t.token)).body.testMode, true);
    const withheld = await createTicket(api, t, { title: 'Made while in test mode' });
    await page.locator(`#testmode-${id}`).uncheck();
    await statusSays(page, /Test mode is off/);
    const sent = await createTicket(api, t, { title: 'Made after test mode' });
    await eventually(() => receiver.of('ticket.created').some((d) => d.envelope.data.id === sent.id), { timeoutMs: 30_000, what: 'the real event after test mode' });
    assert.equal(receiver.of('ticket.created').some((d) => d.envelope.data.id === withheld.id), false, 'the event of test mode was withheld');

    await card.getByRole('button', { name: /^Pause/ }).click();
    await statusSays(page, /^Paused/);
    await page.locator(`article.card[data-id="${id}"] [data-field="state"]`, { hasText: /^Paused/ }).waitFor();
    await assertPageState(page, 'a paused endpoint');
    assert.equal(await activeId(page), `toggle-${id}`);
    await page.locator(`#toggle-${id}`).click();
    await statusSays(page, /^Resumed/);

    await page.locator(`article.card[data-id="${id}"]`).getByRole('button', { name: /^Delete/ }).click();
    await confirmInDialog(page, /Delete this webhook endpoint/);
    await statusSays(page, /Deleted the endpoint/);
    await page.locator('#webhooks-empty').waitFor({ state: 'visible' });
    assert.equal(await activeId(page), 'webhooks-title', 'focus moves to the section');
    assert.equal((await bearerGet(`/v1/webhooks/${id}`, t.token)).status, 404);
    assert.deepEqual(problems, []);
  });

  it('platform: an admin token signs in; a 30-day token is shown once, revoked after a confirmation, and refused', async () => {
    const p = await platformTenant(api);
    const { page, problems } = await browser.newPage();
    await signIn(page, api.baseUrl, 'platform', p.adminToken);
    await page.locator('#tokens tbody tr').first().waitFor();
    await page.locator('#webhooks-empty', { hasText: 'No webhook endpoints yet' }).waitFor();
    await assertPageState(page, 'the platform page');

    const name = unique('Nightly export');
    await page.locator('#new-token summary').click();
    await page.locator('#token-name').fill(name);
    await page.locator('#token-expiry').selectOption('30');
    await page.locator('#create-token button[type="submit"]').click();
    await page.locator('#new-token-secret').waitFor();
    const token = await page.locator('#new-token-secret').inputValue();
    assert.match(token, /^service_test_/);
    const listed = await bearerGet('/platform/v1/auth/tokens?per_page=100', p.adminToken);
    const made = listed.body.data.find((x: { name: string }) => x.name === name);
    assert.equal(Date.parse(made.expires_at) - Date.parse(made.created_at), 30 * 86_400_000);
    assert.equal((await bearerGet('/platform/v1/auth/tokens', token)).status, 200);
    const row = page.locator('#tokens tbody tr', { hasText: name });
    assert.match((await row.textContent()) ?? '', /@/, 'the creator is named by email');
    await assertPageState(page, 'the platform page with a new token shown once');

    await row.getByRole('button', { name: /Revoke/ }).click();
    await confirmInDialog(page, new RegExp(`Revoke the token “${name}”`));
    await row.locator('.badge', { hasText: /^Revoked/ }).waitFor();
    assert.equal((await bearerGet('/platform/v1/auth/tokens', token)).status, 401, 'the API refuses the revoked token');

    // revoking the token the session stands on ends it: the next action leads back to the sign-in page
    const own = listed.body.data.find((x: { prefix: string }) => p.adminToken.startsWith(x.prefix));
    assert.equal((await api.request('DELETE', `/platform/v1/auth/tokens/${own.id}`, { token: p.adminToken })).status, 204);
    await page.locator('#new-token summary').click();
    await page.locator('#token-name').fill('After the revocation');
    await page.locator('#create-token button[type="submit"]').click();
    await page.waitForURL(`${api.baseUrl}/settings`);
    await statusSays(page, /Your session ended/);
    assert.deepEqual(problems, []);
  });

  it('platform: an endpoint paused after failures shows why, its log shows the failed attempt; resume; delete after a confirmation', async () => {
    const p = await platformTenant(api);
    // the platform API takes public HTTPS addresses only: the endpoint is made by the domain's command
    const { id } = await registerPlatformEndpoint(api.deps.db, api.deps.config, { workspaceId: p.workspaceId, url: receiver.url, events: ['ticket.created'], description: 'Game server bridge' });
    await pauseEndpoint(api.deps.db, id, 'delivery_failed');
    const failed = await insertLoggedDelivery(api.deps.db, { endpointId: id, workspaceId: p.workspaceId, status: 'failed' });
    await insertAttempt(api.deps.db, failed, { attempt: 1, statusCode: 503, latencyMs: 40, error: 'the endpoint answered 503' });

    const { page, problems } = await browser.newPage();
    await signIn(page, api.baseUrl, 'platform', p.adminToken);
    const card = page.locator(`article.card[data-id="${id}"]`);
    await card.locator('[data-field="state"]', { hasText: 'Paused — paused after a delivery failed five times' }).waitFor();
    await card.getByRole('button', { name: /Delivery log/ }).click();
    await card.locator(`.delivery[data-id="${failed}"] tr[data-attempt="1"]`, { hasText: 'the endpoint answered 503' }).waitFor();
    await assertPageState(page, 'the platform page with a paused endpoint and its log');

    await page.locator(`#toggle-${id}`).click();
    await statusSays(page, /^Resumed/);
    assert.equal((await bearerGet(`/platform/v1/webhooks/${id}`, p.adminToken)).body.active, true);
    await card.getByRole('button', { name: /^Delete/ }).click();
    await confirmInDialog(page, /Delete this webhook endpoint/);
    await page.locator('#webhooks-empty').waitFor({ state: 'visible' });
    assert.equal((await bearerGet(`/platform/v1/webhooks/${id}`, p.adminToken)).status, 404);
    assert.deepEqual(problems, []);
  });

  it('an unknown address under /settings: a page that says so, with a way back', async () => {
    const { page, problems } = await browser.newPage();
    const res = await page.goto(`${api.baseUrl}/settings/nothing-here`);
    assert.equal(res?.status(), 404);
    assert.equal(await page.locator('h1').textContent(), 'Page not found');
    await assertPageState(page, 'the 404 page');
    await page.getByRole('link', { name: /settings sign-in/ }).click();
    await page.locator('#sign-in-section').waitFor({ state: 'visible' });
    assert.deepEqual(problems, []);
  });
});
