// The pages' layout check (docs/testing.md, "Accessibility and layout"): at a 1280×800
// window nothing scrolls sideways, neither the page nor a box inside it (a table in an
// `overflow-x: auto` wrapper would keep the page narrow and still make the reader scroll).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** The window every page must fit: a common laptop screen. */
export const DESKTOP_VIEWPORT = { width: 1280, height: 800 } as const;

interface Widths {
  scrollWidth: number;
  innerWidth: number;
  /** Boxes (not form fields, whose text may scroll by design) wider inside than shown. */
  scrollingBoxes: string[];
  /** Elements whose right edge passes the window's. */
  pastTheEdge: string[];
}

// a string, not a function: the test is typed without the DOM library
const MEASURE = `(() => {
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  const all = Array.from(document.body.querySelectorAll('*'));
  const visible = (e) => e.getClientRects().length > 0;
  const scrollingBoxes = all
    .filter((e) => visible(e) && !/^(INPUT|TEXTAREA|SELECT)$/.test(e.tagName))
    .filter((e) => /auto|scroll/.test(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth)
    .map((e) => name(e) + ': ' + e.scrollWidth + ' px inside ' + e.clientWidth + ' px');
  const pastTheEdge = all
    .filter((e) => visible(e) && e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .slice(0, 10)
    .map((e) => name(e) + ': right edge at ' + Math.round(e.getBoundingClientRect().right) + ' px');
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, scrollingBoxes, pastTheEdge };
})()`;

/** Fails when the page, or a box in it, scrolls sideways in its current state (`what` names it). */
export async function assertNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const w = await page.evaluate<Widths>(MEASURE);
  const detail = [...w.pastTheEdge, ...w.scrollingBoxes].map((l) => `  ${l}`).join('\n');
  assert.ok(w.scrollWidth <= w.innerWidth, `${what} scrolls sideways: ${w.scrollWidth} px wide in a ${w.innerWidth}-px window\n${detail}`);
  assert.deepEqual(w.scrollingBoxes, [], `${what}: a box scrolls sideways in a ${w.innerWidth}-px window\n${detail}`);
}
