// Trial onboarding in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core) against the real API, the suite's workers and its SMTP sink: a
// super-admin signs in on the operator page with the keyboard alone, approves a request
// with plan and days, sees its setup email sent; the owner opens the emailed link, sets
// the password and is signed in with it. A rejection needs a reason; a generated link is
// shown once; a resend and an extension show on the row. The operator page signs in
// through the settings session (an HttpOnly cookie; nothing in sessionStorage or
// localStorage) and a reload keeps it. No token reaches the request log, and no page
// breaks its CSP. Every state of both pages passes axe-core and fits a 1280-px window
// (test/support/page-checks.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startApi, type TestApi } from '../support/api';
import { capturedLogger } from '../support/captured-log';
import { receivedMail, setupLinkIn } from '../support/mail';
import { startBrowser, type TestBrowser } from '../support/browser';
import { ACTION_ERROR, actionRow, actionSettled, activeId, row, signInByKeyboard, submitAction } from '../support/operator-page';
import { assertPageState } from '../support/page-checks';
import { bearer, GENEROUS_PUSH_LIMITS, registerAccount, type PushAccount } from '../support/push';
import { submitTrial, superAdmin } from '../support/trial-requests';

const log = capturedLogger('info');
let api: TestApi;
let browser: TestBrowser;
let admin: PushAccount;

beforeAll(async () => {
  // startPushApi's limits, with a logger whose lines the tests read
  api = await startApi({ RATE_LIMITS: GENEROUS_PUSH_LIMITS }, { logger: log.logger });
  admin = await superAdmin(api);
  // refused admin calls (401, 403) are the test's own doing
  browser = await startBrowser(/status of 40[13]/);
});
afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

const unique = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}`;

async function submitted(form: { email: string; companyName: string; fullName: string; requestedPlanSlug: string }): Promise<string> {
  const res = await submitTrial(api, form);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

const newPage = () => browser.newPage();
afterEach(() => browser.closePages());

/** A request whose long words and addresses must wrap inside the table, not widen it. */
async function longRequest(): Promise<string> {
  return submitted({
    email: `${unique('procurement.department.of.the.studio')}@interactive-entertainment-holdings.pixelforge.example`,
    companyName: `${unique('Extraordinarily-Long-Unbroken-Company-Name-For-The-Layout-Check')} Interactive Entertainment Holdings International`,
    fullName: 'Maximiliana Alexandrina Featherstonehaugh-Cholmondeley',
    requestedPlanSlug: 'growth',
  });
}

describe('trial onboarding in the browser', () => {
  it('keyboard sign-in: another user is told the account is not a super-admin; the super-admin sees the requests', async () => {
    const { page, problems } = await newPage();
    await page.goto(`${api.baseUrl}/admin/trial-requests`);
    await page.locator('#sign-in').waitFor();
    await assertPageState(page, 'the operator page, signed out');
    const someone = await registerAccount(api);
    await signInByKeyboard(page, api.baseUrl, someone);
    await page.locator('#sign-in-error', { hasText: 'not a super-admin' }).waitFor();
    assert.equal(await page.locator('#requests-section').isVisible(), false);
    await assertPageState(page, 'the operator page, sign-in refused');

    const long = await longRequest();
    await signInByKeyboard(page, api.baseUrl, admin);
    await page.locator('#requests-section').waitFor({ state: 'visible' });
    await row(page, long).waitFor();
    await assertPageState(page, 'the operator page, signed in with a long request in the table');
    assert.equal(await page.locator('#session-email').textContent(), admin.email);
    await page.locator('#status', { hasText: `Signed in as ${admin.email}` }).waitFor();
    // focus is visible: the stylesheet's :focus-visible outline
    await page.locator('#refresh').focus();
    assert.notEqual(await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle'), 'none');

    // the session is the cookie alone: no script can read it, and no storage holds a credential
    assert.equal(await page.evaluate<number>('sessionStorage.length + localStorage.length'), 0);
    assert.equal(await page.evaluate<string>('document.cookie'), '');
    const cookies = await page.context().cookies();
    assert.deepEqual(
      cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.secure, c.path]),
      [['__Host-settings_session', true, 'Strict', true, '/']],
    );
    // a reload keeps the session
    await page.reload();
    await page.locator('#requests-section').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#session-email').textContent(), admin.email);
    assert.equal(await page.evaluate<number>('sessionStorage.length + localStorage.length'), 0);

    // signing out ends it on the server: the cookie is gone and a reload shows the sign-in form
    const ended = page.waitForResponse((r) => r.url().endsWith('/settings/session') && r.request().method() === 'DELETE');
    await page.locator('#sign-out').click();
    assert.equal((await ended).status(), 204);
    await page.locator('#sign-in-section').waitFor({ state: 'visible' });
    assert.deepEqual(await page.context().cookies(), []);
    const asked = page.waitForResponse((r) => r.url().endsWith('/settings/session') && r.request().method() === 'GET');
    await page.reload();
    assert.equal((await asked).status(), 401);
    assert.equal(await page.locator('#requests-section').isVisible(), false);
    assert.deepEqual(problems, []);
  });

  it('approve on the operator page, the emailed link, set the password, signed in with it', async () => {
    // the suite's fake Postmark refuses +provider-down recipients: the chain falls through
    // to SMTP, so the mail lands in the SMTP catcher and the row shows the fall-through
    const email = `${unique('owner+provider-down')}@pixelforge.example`;
    const companyName = unique('Pixel Forge');
    const id = await submitted({ email, companyName, fullName: 'Robin Example', requestedPlanSlug: 'growth' });

    const { page, problems } = await newPage();
    await signInByKeyboard(page, api.baseUrl, admin);
    await row(page, id).waitFor();
    assert.match((await row(page, id).locator('[data-field="status"]').textContent()) ?? '', /^Submitted/);

    await row(page, id).locator('button[data-action="approve"]').click();
    const plan = page.locator(`#approve-plan-${id}`);
    await assertPageState(page, 'the operator page, approve form open');
    assert.equal(await plan.inputValue(), 'growth', 'the requested plan is the default');
    assert.equal(await page.locator(`#approve-days-${id}`).inputValue(), '14');
    await plan.fill('scale');
    await page.locator(`#approve-days-${id}`).fill('10');
    await page.locator(`#approve-notes-${id}`).fill('Known studio');
    await submitAction(page, id);

    await row(page, id).locator('[data-field="status"]', { hasText: /^Approved/ }).waitFor();
    // the page reloads the list until the workflow has emailed the link
    await row(page, id).locator('[data-field="setup-email"][data-state="sent"]').waitFor({ timeout: 60_000 });
    const cell = (await row(page, id).locator('[data-field="setup-email"]').textContent()) ?? '';
    assert.match(cell, /Attempts\s*1/);
    assert.match(cell, /Provider\s*smtp/);
    assert.doesNotMatch(cell, /Last error\s*—/, 'the refusal of the provider before SMTP is shown');
    assert.match((await row(page, id).locator('[data-field="trial"]').textContent()) ?? '', /\/ trial$/);
    await assertPageState(page, 'the operator page, an approved request with its setup email');

    const mail = await receivedMail((m) => m.to.includes(email));
    const link = setupLinkIn(mail);
    const token = link.searchParams.get('token')!;
    // the workers build links on APP_URL; this API listens on a port of its own
    const { page: owner, problems: ownerProblems } = await newPage();
    await owner.goto(`${api.baseUrl}/setup-password`);
    await owner.locator('#invalid').waitFor({ state: 'visible' });
    await assertPageState(owner, 'the set-password page without a token');
    await owner.goto(`${api.baseUrl}${link.pathname}${link.search}`);
    await owner.locator('#form-section').waitFor({ state: 'visible' });
    assert.equal(owner.url(), `${api.baseUrl}/setup-password`, 'the token left the address bar');
    assert.equal(await owner.locator('#form-title').textContent(), `Set the password for ${email} (Robin Example, ${companyName})`);
    assert.ok(await owner.locator('#expires').getAttribute('datetime'));
    await assertPageState(owner, 'the set-password page, its form');

    await owner.locator('#password').fill('correct horse battery');
    await owner.locator('#confirm').fill('correct horse batterz');
    await owner.locator('#confirm').press('Enter');
    await owner.locator('#form-error', { hasText: 'differ' }).waitFor();
    await assertPageState(owner, 'the set-password page, an error in its form');
    await owner.locator('#confirm').fill('correct horse battery');
    await owner.locator('#confirm').press('Enter');
    await owner.locator('#signed-in', { hasText: `Signed in as ${email}.` }).waitFor();
    await assertPageState(owner, 'the set-password page, password set');

    // the link is spent: opening it again says so
    await owner.goto(`${api.baseUrl}${link.pathname}${link.search}`);
    await owner.locator('#invalid').waitFor({ state: 'visible' });
    assert.match((await owner.locator('#invalid').textContent()) ?? '', /expired, was already used, or was replaced/);
    await assertPageState(owner, 'the set-password page, a spent link');

    const view = await api.request('GET', `/api/v1/admin/trial-requests/${id}`, { headers: bearer(admin.accessToken) });
    assert.equal(view.status, 200, JSON.stringify(view.body));
    assert.equal(view.body.planSlug, 'scale');
    assert.equal(view.body.trialDays, 10);
    assert.equal(view.body.adminNotes, 'Known studio');
    assert.ok(view.body.passwordSetAt);

    assert.equal(log.text().includes(token), false, 'the setup token reached the request log');
    assert.deepEqual([...problems, ...ownerProblems], []);
  });

  it('reject: a reason is required, then the row shows Rejected with it and no actions', async () => {
    const id = await submitted({ email: `${unique('declined')}@pixelforge.example`, companyName: unique('Spam Co'), fullName: 'Sam Example', requestedPlanSlug: 'growth' });
    const { page, problems } = await newPage();
    await signInByKeyboard(page, api.baseUrl, admin);
    await page.locator('#status-filter').selectOption('Submitted');
    await page.locator('#filter button[type="submit"]').click();
    await page.locator('#requests-caption').waitFor();
    await row(page, id).locator('button[data-action="reject"]').click();
    assert.equal(await activeId(page), `reject-notes-${id}`, 'focus moves into the opened form');
    await actionRow(page, id).locator('button[type="submit"]').click();
    await actionRow(page, id).locator('p.error', { hasText: 'reason' }).waitFor();
    await page.locator(`#reject-notes-${id}`).fill('Not a game studio');
    await submitAction(page, id);
    // a Rejected request leaves the Submitted filter; all of them show it
    await row(page, id).waitFor({ state: 'detached' });
    await page.locator('#status-filter').selectOption('');
    await page.locator('#filter button[type="submit"]').click();
    await row(page, id).locator('[data-field="status"]', { hasText: 'Rejected — Not a game studio' }).waitFor();
    await assertPageState(page, 'the operator page, a rejected request');
    assert.equal(await row(page, id).locator('button').count(), 0);
    assert.deepEqual(problems, []);
  });

  it('generate link: the URL is shown once, with a copy button, and works; resend; extend', async () => {
    const email = `${unique('linked')}@pixelforge.example`;
    const id = await submitted({ email, companyName: unique('Mossy Games'), fullName: 'Kim Example', requestedPlanSlug: 'starter' });
    const approved = await api.request('POST', `/api/v1/admin/trial-requests/${id}/approve`, {
      headers: { ...bearer(admin.accessToken), 'idempotency-key': randomUUID() },
      body: { planSlug: 'starter', trialDays: 14 },
    });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));

    const { page, problems } = await newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.baseUrl });
    await signInByKeyboard(page, api.baseUrl, admin);
    await row(page, id).locator('button[data-action="link"]').click();
    await actionRow(page, id).locator('button[type="submit"]').click();
    await page.locator(`#setup-url-${id}, ${ACTION_ERROR(id)}`).first().waitFor();
    assert.equal(await page.locator(ACTION_ERROR(id)).count(), 0, (await actionRow(page, id).textContent()) ?? '');

    const input = page.locator(`#setup-url-${id}`);
    await input.waitFor();
    const url = await input.inputValue();
    assert.match(url, /\/setup-password\?token=[A-Za-z0-9_-]{43}$/);
    assert.equal(await input.getAttribute('readonly'), '');
    assert.match((await actionRow(page, id).textContent()) ?? '', /will not be shown again/);
    await assertPageState(page, 'the operator page, a generated link shown once');
    await actionRow(page, id).getByRole('button', { name: 'Copy' }).click();
    await actionRow(page, id).locator('[role="status"]', { hasText: /Copied|Selected/ }).waitFor();

    const token = new URL(url).searchParams.get('token')!;
    const info = await api.request('POST', '/api/v1/auth/setup-token', { body: { token } });
    assert.equal(info.status, 200);
    assert.equal(info.body.isValid, true);
    assert.equal(info.body.email, email);

    await actionRow(page, id).getByRole('button', { name: 'Done' }).click();
    await actionRow(page, id).waitFor({ state: 'detached' });
    assert.equal((await page.content()).includes(token), false, 'the link is gone from the page');
    assert.match((await row(page, id).locator('[data-field="setup-email"]').textContent()) ?? '', /Last link generated\s*\d/);

    // Resend: the page reloads the list until the new attempt is recorded
    const attempts = Number(/Attempts\s*(\d+)/.exec((await row(page, id).locator('[data-field="setup-email"]').textContent()) ?? '')![1]);
    await row(page, id).locator('button[data-action="resend"]').click();
    await submitAction(page, id);
    await row(page, id).locator('[data-field="setup-email"]', { hasText: new RegExp(`Attempts\\s*${attempts + 1}`) }).waitFor({ timeout: 60_000 });

    // Extend: the trial's end moves by the days given
    const before = (await api.request('GET', `/api/v1/admin/trial-requests/${id}`, { headers: bearer(admin.accessToken) })).body.trialEndsAt;
    await row(page, id).locator('button[data-action="extend"]').click();
    await page.locator(`#extend-days-${id}`).fill('5');
    await page.locator(`#extend-days-${id}`).press('Enter');
    await actionSettled(page, id);
    const after = (await api.request('GET', `/api/v1/admin/trial-requests/${id}`, { headers: bearer(admin.accessToken) })).body.trialEndsAt;
    assert.equal(Date.parse(after) - Date.parse(before), 5 * 86_400_000);

    assert.equal(log.text().includes(token), false, 'the setup token reached the request log');
    assert.deepEqual(problems, []);
  });
});
