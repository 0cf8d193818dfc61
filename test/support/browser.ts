// The browser tests' Chromium (Debian's, driven by playwright-core): one browser per test
// file, a page per context in a 1280 × 800 window, and every script error or CSP refusal
// the page meets collected as a problem for the test to assert empty.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DESKTOP_VIEWPORT } from './page-checks';

// scripts/ensure.sh installs it (ENSURE_CHROMIUM=1, set by scripts/test.sh)
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export interface TestBrowser {
  /** a page of its own context, and the problems it has met so far */
  newPage(): Promise<{ page: Page; problems: string[] }>;
  /** closes every page's context (after each test) */
  closePages(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `expectedStatuses`: the refused calls a page makes on purpose in these tests (Chromium
 * logs each as a console error), e.g. /status of 40[13]/ for a session the page has not got.
 */
export async function startBrowser(expectedStatuses: RegExp): Promise<TestBrowser> {
  assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: \`npm test\` installs Debian's chromium (ENSURE_CHROMIUM=1 bash scripts/ensure.sh), or set CHROMIUM_PATH`);
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const contexts: BrowserContext[] = [];
  return {
    async newPage() {
      const context = await browser.newContext({ viewport: DESKTOP_VIEWPORT });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('console', (m) => {
        // Chromium asks for a favicon by itself
        if (m.type() !== 'error' || expectedStatuses.test(m.text()) || m.location().url.endsWith('/favicon.ico')) return;
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
