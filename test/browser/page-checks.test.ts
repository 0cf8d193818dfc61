// The page checks themselves (test/support/axe.ts, layout.ts): on a page with known
// faults they find them and say where, so a page that passes them passed a real check
// (docs/testing.md, "Accessibility and layout").
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { assertAccessible, axeViolations, formatViolations } from '../support/axe';
import { assertNoSidewaysScroll, DESKTOP_VIEWPORT } from '../support/layout';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  page = await (await browser.newContext({ viewport: DESKTOP_VIEWPORT })).newPage();
});
afterAll(async () => {
  await browser?.close();
});

const DOC = (body: string) => `<!doctype html><html lang="en"><head><title>checks</title></head><body><main><h1>Checks</h1>${body}</main></body></html>`;

describe('the page checks', () => {
  it('axe-core finds an unlabelled field and an image without text, with rule, impact, selector and help', async () => {
    await page.setContent(DOC('<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" id="logo"><input id="nameless" type="text">'));
    const violations = await axeViolations(page);
    assert.deepEqual(violations.map((v) => v.id).sort(), ['image-alt', 'label']);
    const label = violations.find((v) => v.id === 'label')!;
    assert.equal(label.impact, 'critical');
    assert.deepEqual(label.targets, ['#nameless']);
    assert.match(label.helpUrl, /^https:\/\/dequeuniversity\.com\/rules\/axe\/4\.14\/label/);
    const text = formatViolations(violations);
    assert.match(text, /- label \(critical\): Form elements must have labels/);
    assert.match(text, /at #logo/);
    await assert.rejects(assertAccessible(page, 'the faulty page'), /axe-core found 2 violation\(s\) on the faulty page:\n- /);
    // excluded parts are not checked
    assert.deepEqual(await axeViolations(page, { exclude: ['#logo', '#nameless'] }), []);
  });

  it('axe-core checks WCAG AA (contrast) and best practices (content inside landmarks)', async () => {
    await page.setContent(`<!doctype html><html lang="en"><head><title>checks</title></head><body>
      <p>outside every landmark</p><main><h1>Checks</h1><p style="color:#aaa">pale text</p></main></body></html>`);
    assert.deepEqual((await axeViolations(page)).map((v) => v.id).sort(), ['color-contrast', 'region']);
  });

  it('a clean page passes', async () => {
    await page.setContent(DOC('<label for="n">Name</label><input id="n" type="text"><p>Plain text.</p>'));
    await assertAccessible(page, 'the clean page');
    await assertNoSidewaysScroll(page, 'the clean page');
  });

  it('the layout check fails on a wide page and on a box that scrolls sideways, naming them', async () => {
    await page.setContent(DOC('<div id="wide" style="width:1500px">wide</div>'));
    await assert.rejects(assertNoSidewaysScroll(page, 'the wide page'), /the wide page scrolls sideways: \d+ px wide in a 1280-px window[\s\S]*div#wide: right edge at/);
    await page.setContent(DOC('<div class="table-wrap" style="overflow-x:auto"><table style="width:1600px"><tr><td>x</td></tr></table></div>'));
    await assert.rejects(assertNoSidewaysScroll(page, 'the scrolling box'), /div\.table-wrap: 1600 px inside \d+ px/);
  });
});
