// What every state of a web page must pass (docs/testing.md, "Accessibility and layout"):
// no axe-core violation (WCAG 2.0/2.1 A and AA, best practices) and no sideways scrolling
// at 1280 px. The page's context should have DESKTOP_VIEWPORT.
import type { Page } from 'playwright-core';
import { assertAccessible } from './axe';
import { assertNoSidewaysScroll } from './layout';

export { DESKTOP_VIEWPORT } from './layout';

/** Fails with axe's violations, or with what sticks out, of the page as it is now (`what` names the state). */
export async function assertPageState(page: Page, what: string): Promise<void> {
  await assertAccessible(page, what);
  await assertNoSidewaysScroll(page, what);
}
