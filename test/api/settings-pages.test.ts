// The settings pages as served (docs/settings.md, "The pages"): each an HTML shell with
// the pages' headers (a self-only CSP that forbids framing, no Referer, no cached copy,
// HSTS when the request came over TLS), a label for every control, and a clear HTML page
// (404) for any other address under /settings, never the APIs' JSON, never a 500.
import assert from 'node:assert/strict';
import { SETTINGS_ASSET_FILES } from '../../api/web/settings-pages';
import { ASSET_FILES } from '../../api/web/pages';
import { startApi, type TestApi } from '../support/api';

const PAGES = ['/settings', '/settings/ticketing', '/settings/platform'];

describe('settings pages as served', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({});
  });
  afterAll(() => api?.stop());

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(api.baseUrl + path, { headers, redirect: 'manual' });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  function assertPageHeaders(res: { headers: Headers }, path: string) {
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"]) {
      assert.ok(csp.includes(directive), `${path}: ${directive} in ${csp}`);
    }
    assert.equal(csp.includes('unsafe-inline'), false);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  }

  for (const path of PAGES) {
    it(`${path}: an HTML shell with the page headers, its own files and a label for every control`, async () => {
      const res = await get(path);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
      assertPageHeaders(res, path);
      assert.equal(res.headers.get('strict-transport-security'), null, 'no HSTS over plain HTTP');
      const scripts = [...res.text.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
      assert.equal(scripts.length, 1);
      for (const attrs of scripts) assert.match(attrs, /type="module" src="\/settings\/assets\/[a-z-]+\.js"/);
      assert.equal(/\sstyle=|<style|https?:\/\//.test(res.text), false, 'no inline style, no external address');
      const ids = [...res.text.matchAll(/<(?:input|select|textarea)\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
      for (const id of ids) assert.ok(res.text.includes(`<label for="${id}"`), `a label for #${id}`);
      assert.ok(res.text.includes('aria-live="polite"'));
    });
  }

  it('HSTS on every page when the request came over TLS (X-Forwarded-Proto: https)', async () => {
    for (const path of [...PAGES, '/settings/nothing-here']) {
      const res = await get(path, { 'x-forwarded-proto': 'https' });
      assert.match(res.headers.get('strict-transport-security') ?? '', /^max-age=\d+/, path);
    }
  });

  it('any other address under /settings: an HTML page that says so (404), with the page headers', async () => {
    for (const path of ['/settings/nothing-here', '/settings/ticketing/keys/extra', '/settings/sessions', '/settings/assets/nothing.js']) {
      const res = await get(path);
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/, path);
      assert.match(res.text, /<h1>Page not found<\/h1>/);
      assert.match(res.text, /href="\/settings"/);
      assertPageHeaders(res, path);
    }
    // the session endpoints are JSON, not pages
    const session = await get('/settings/session');
    assert.notEqual(session.status, 404);
    assert.match(session.headers.get('content-type') ?? '', /json/);
  });

  it("any other error on a page's address is a page too (a malformed address, a method no page serves); the session endpoints' errors stay JSON", async () => {
    const cases: Array<[string, string, number]> = [
      ['GET', '/settings/%E0%A4%A', 400],
      ['POST', '/settings', 405],
      ['DELETE', '/settings/ticketing', 405],
      ['PUT', '/admin/trial-requests', 405],
      ['POST', '/setup-password', 405],
    ];
    for (const [method, path, status] of cases) {
      const res = await fetch(api.baseUrl + path, { method, redirect: 'manual' });
      const text = await res.text();
      assert.equal(res.status, status, `${method} ${path}: ${text}`);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/, `${method} ${path}`);
      assert.match(text, /<h1>[^<]+<\/h1>/);
      assert.ok(!text.includes('<script'), 'an error page runs no script');
      assertPageHeaders({ headers: res.headers }, path);
    }
    // what a request put in the address is shown escaped
    const odd = await fetch(api.baseUrl + '/settings/%3Cb%3Ex', { method: 'POST' });
    assert.equal(odd.status, 405);
    assert.ok(!(await odd.text()).includes('<b>x'));
    const session = await fetch(api.baseUrl + '/settings/session', { method: 'PUT' });
    assert.equal(session.status, 405);
    assert.match(session.headers.get('content-type') ?? '', /json/);
  });

  it('the settings files are among the served files', () => {
    for (const [path, file] of Object.entries(SETTINGS_ASSET_FILES)) assert.equal(ASSET_FILES[path], file);
  });
});
