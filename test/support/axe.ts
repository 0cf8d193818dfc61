// axe-core inside a real Chromium page (playwright-core): the accessibility check of the
// web pages (docs/testing.md, "Accessibility and layout"). The pages' CSP forbids inline
// script, so axe's source is not added as a <script> tag: it is evaluated through the
// DevTools protocol (page.evaluate), which the page's CSP does not govern, and the CSP
// stays as strict as it is served.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** WCAG 2.0 and 2.1, levels A and AA, and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] as const;

let source: string | undefined;
const axeSource = () => (source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  /** The CSS selectors of the offending elements (one array per frame level). */
  targets: string[];
  /** axe's "Fix any of the following" for the first element: what to change. */
  summary: string;
}

export interface AxeOptions {
  /** Selectors of parts of the page to leave out (e.g. another party's widget). */
  exclude?: string[];
}

/** Runs axe on the page as it is now and returns its violations (none: []). */
export async function axeViolations(page: Page, opts: AxeOptions = {}): Promise<AxeViolation[]> {
  // once per document: a navigation drops it, so ask the page rather than remembering
  const loaded = await page.evaluate<boolean>("typeof window.axe === 'object' && typeof window.axe.run === 'function'");
  if (!loaded) await page.evaluate(axeSource());
  // a function, not a string: its argument crosses as data; the test is typed without
  // the DOM library, hence `globalThis`
  return page.evaluate(
    async ({ tags, exclude }) => {
      const axe = (globalThis as unknown as { axe: AxeRunner }).axe;
      const result = await axe.run(exclude.length ? { exclude: exclude.map((s) => [s]) } : { exclude: [] }, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        helpUrl: v.helpUrl,
        targets: v.nodes.map((n) => n.target.map(String).join(' >>> ')),
        summary: v.nodes[0]?.failureSummary ?? '',
      }));
    },
    { tags: [...AXE_TAGS], exclude: opts.exclude ?? [] },
  );
}

/** The violations as a list a reader can act on: rule, impact, what to do, where. */
export function formatViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) =>
      [
        `- ${v.id} (${v.impact ?? 'no impact given'}): ${v.help}`,
        `    ${v.helpUrl}`,
        ...v.targets.map((t) => `    at ${t}`),
        ...v.summary.split('\n').map((l) => `    | ${l}`),
      ].join('\n'),
    )
    .join('\n');
}

/** Fails with every violation axe finds on the page in its current state (`what` names the state). */
export async function assertAccessible(page: Page, what: string, opts: AxeOptions = {}): Promise<void> {
  const violations = await axeViolations(page, opts);
  assert.equal(violations.length, 0, `axe-core found ${violations.length} violation(s) on ${what}:\n${formatViolations(violations)}`);
}

// the part of axe's API used here (axe-core's own types need the DOM library)
interface AxeRunner {
  run(
    context: { exclude: string[][] },
    options: { runOnly: { type: 'tag'; values: string[] }; resultTypes: string[] },
  ): Promise<{
    violations: Array<{
      id: string;
      impact?: string | null;
      help: string;
      helpUrl: string;
      nodes: Array<{ target: unknown[]; failureSummary?: string }>;
    }>;
  }>;
}
