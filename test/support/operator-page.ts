// What the operator page's browser test does on the page (api/web, /admin/trial-requests):
// sign in with the keyboard alone, find a request's row and its open action form, and
// submit that form, failing the test with the API's refusal when the page shows one.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

// page.evaluate with expressions as strings: the tests are typed without the DOM library
export const activeId = (page: Page) => page.evaluate<string>("document.activeElement ? document.activeElement.id : ''");

/** Signs in on the operator page with the keyboard alone: Tab to each field, Enter to submit. */
export async function signInByKeyboard(page: Page, baseUrl: string, account: { email: string; password: string }): Promise<void> {
  await page.goto(`${baseUrl}/admin/trial-requests`);
  await page.waitForLoadState('domcontentloaded');
  await page.keyboard.press('Tab');
  assert.equal(await activeId(page), 'sign-in-email', 'the first Tab stop is the email field');
  await page.keyboard.type(account.email);
  await page.keyboard.press('Tab');
  assert.equal(await activeId(page), 'sign-in-password');
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');
}

export const row = (page: Page, id: string) => page.locator(`tr[data-id="${id}"]`);
export const actionRow = (page: Page, id: string) => page.locator(`tr[data-action-for="${id}"]`);
export const ACTION_ERROR = (id: string) => `tr[data-action-for="${id}"] p.error:not(:empty)`;

/** Submits the open action form of request `id`: it closes on success; the API's refusal fails the test. */
export async function submitAction(page: Page, id: string): Promise<void> {
  await actionRow(page, id).locator('button[type="submit"]').click();
  await actionSettled(page, id);
}

/** The open action form of request `id` has closed (success), or shows the API's refusal (fails the test). */
export async function actionSettled(page: Page, id: string): Promise<void> {
  // (locators, not waitForFunction: the pages' CSP forbids the eval that a string predicate needs)
  const closed = actionRow(page, id).waitFor({ state: 'detached' });
  const refused = page.locator(ACTION_ERROR(id)).waitFor();
  // the one that loses the race times out later: caught, not an unhandled rejection
  closed.catch(() => {});
  refused.catch(() => {});
  await Promise.race([closed, refused]);
  const error = page.locator(ACTION_ERROR(id));
  if (await error.count()) assert.fail(`the API refused: ${await error.textContent()}`);
}
