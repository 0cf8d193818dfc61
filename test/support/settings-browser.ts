// What the settings pages' browser tests share (test/browser/settings.test.ts): Debian's
// Chromium driven by playwright-core, a page per context that fails the test on a script
// error or a CSP refusal, signing in on /settings, the confirmation dialog, and the
// layout check of a 1280-px window.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

// scripts/ensure.sh installs it (ENSURE_CHROMIUM=1, set by scripts/test.sh)
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export interface SettingsBrowser {
  /** a page of its own context (1280 × 800), and the problems it has met so far */
  newPage(): Promise<{ page: Page; problems: string[] }>;
  closePages(): Promise<void>;
  close(): Promise<void>;
}

export async function startSettingsBrowser(): Promise<SettingsBrowser> {
  assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: \`npm test\` installs Debian's chromium (ENSURE_CHROMIUM=1 bash scripts/ensure.sh), or set CHROMIUM_PATH`);
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const contexts: BrowserContext[] = [];
  return {
    async newPage() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('console', (m) => {
        // a 401 or 404 is the page asking for a session it has not got, or the 404 page itself;
        // Chromium asks for a favicon by itself
        if (m.type() !== 'error' || /status of 40[134]/.test(m.text()) || m.location().url.endsWith('/favicon.ico')) return;
        problems.push(`console: ${m.text()}`);
      });
      return { page, problems };
    },
    async closePages() {
      for (const c of contexts.splice(0)) await c.close();
    },
    close: () => browser.close(),
  };
}

/** Signs in on /settings with the keyboard-reachable form and waits for the workspace's page. */
export async function signIn(page: Page, baseUrl: string, api: 'ticketing' | 'platform', credential: string): Promise<void> {
  await page.goto(`${baseUrl}/settings`);
  await page.locator('#sign-in-section').waitFor({ state: 'visible' });
  await page.locator(`#api-${api}`).check();
  await page.locator('#credential').fill(credential);
  await page.locator('#credential').press('Enter');
  await page.waitForURL(`${baseUrl}/settings/${api}**`);
  await page.locator('#session-line').waitFor({ state: 'visible' });
}

/**
 * Answers the page's confirmation dialog: it must be open and titled `title`, with focus
 * on Cancel; `whileOpen` runs before the answer (the page checks of the open dialog).
 */
export async function confirmInDialog(page: Page, title: RegExp, whileOpen?: () => Promise<void>): Promise<void> {
  const dialog = page.locator('#confirm-dialog');
  await dialog.waitFor({ state: 'visible' });
  assert.match((await page.locator('#confirm-title').textContent()) ?? '', title);
  assert.equal(await page.evaluate<string>("document.activeElement ? document.activeElement.id : ''"), 'confirm-cancel', 'focus starts on Cancel');
  if (whileOpen) await whileOpen();
  await page.locator('#confirm-ok').click();
  await dialog.waitFor({ state: 'hidden' });
}

/** The page fits its 1280-px window: nothing makes it scroll sideways. */
export async function assertFitsWidth(page: Page): Promise<void> {
  const [scroll, client] = await page.evaluate<[number, number]>('[document.documentElement.scrollWidth, document.documentElement.clientWidth]');
  assert.ok(scroll <= client, `the page is ${scroll} px wide in a ${client} px window (${page.url()})`);
}

/** The status region's text once it matches `text`. */
export async function statusSays(page: Page, text: RegExp): Promise<void> {
  await page.locator('#status', { hasText: text }).waitFor();
}
