// What the settings pages' browser tests share (test/browser/settings.test.ts): their
// browser (test/support/browser.ts), signing in on /settings, the confirmation dialog and
// the status region.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startBrowser, type TestBrowser } from './browser';

/** The settings pages' browser: a 401 or 404 is the page asking for a session it has not got, or the 404 page itself. */
export const startSettingsBrowser = (): Promise<TestBrowser> => startBrowser(/status of 40[134]/);

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

/** The status region's text once it matches `text`. */
export async function statusSays(page: Page, text: RegExp): Promise<void> {
  await page.locator('#status', { hasText: text }).waitFor();
}
