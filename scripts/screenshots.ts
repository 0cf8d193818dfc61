// `npm run screenshots`: a 1280-px-wide PNG of each web page (scripts/screenshot-pages.ts)
// under docs/screenshots/, taken in headless Chromium against a running `npm start`.
// SCREENSHOTS_BASE_URL: the API to shoot (default the local API of lib/config.ts,
// http://localhost:$PORT); CHROMIUM_PATH: the browser (default Debian's). The demo
// credentials come from `npm run -s admin -- bootstrap`; SCREENSHOTS_ONLY=name,name shoots
// a part of the list.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { loadConfig } from '../lib/config';
import { loadEnvFile } from './env-file';
import { SHOTS, type ApiAnswer, type DemoCredentials, type Shot, type ShotContext } from './screenshot-pages';

const ROOT = resolve(__dirname, '..');
const OUT_DIR = join(ROOT, 'docs', 'screenshots');
// the width every page must fit (docs/testing.md, "Accessibility and layout")
const VIEWPORT = { width: 1280, height: 800 };

loadEnvFile(join(ROOT, '.data', 'env'));
const BASE_URL = (process.env.SCREENSHOTS_BASE_URL || `http://localhost:${loadConfig().port}`).replace(/\/+$/, '');

function bootstrap(): DemoCredentials {
  // the admin script's own stdout is the one JSON object (scripts/admin.ts)
  const out = execFileSync('npm', ['run', '-s', 'admin', '--', 'bootstrap'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').pop()!);
}

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> {
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: kept as text for the error message
  }
  return { status: res.status, body: parsed };
}

async function reachable(): Promise<void> {
  try {
    await fetch(`${BASE_URL}/v1/health`);
  } catch (err) {
    throw new Error(`no API at ${BASE_URL} (${(err as Error).message}): start it with \`npm start\`, or set SCREENSHOTS_BASE_URL`);
  }
}

async function shoot(shot: Shot, ctx: Omit<ShotContext, 'page' | 'context'>, browser: import('playwright-core').Browser): Promise<string> {
  // a context of its own: one page's session never shows on another's shot
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, colorScheme: 'light' });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const full: ShotContext = { ...ctx, page, context };
    const prepared = shot.prepare ? await shot.prepare(full) : undefined;
    if (shot.signIn) await shot.signIn(full);
    await page.goto(`${BASE_URL}${prepared ? prepared.path : shot.path}`);
    await page.locator(shot.ready).first().waitFor({ state: 'visible' });
    // the status line's focus ring and the caret are noise in a picture
    await page.evaluate('document.activeElement && document.activeElement.blur && document.activeElement.blur()');
    const file = join(OUT_DIR, `${shot.name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const only = (process.env.SCREENSHOTS_ONLY || '').split(',').filter(Boolean);
  const shots = only.length ? SHOTS.filter((s) => only.includes(s.name)) : SHOTS;
  if (!shots.length) throw new Error(`SCREENSHOTS_ONLY names none of: ${SHOTS.map((s) => s.name).join(', ')}`);
  await reachable();
  const creds = bootstrap();
  mkdirSync(OUT_DIR, { recursive: true });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    for (const shot of shots) {
      const file = await shoot(shot, { baseUrl: BASE_URL, creds, call }, browser);
      console.log(`${shot.name}: ${file.slice(ROOT.length + 1)}`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(`npm run screenshots: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
