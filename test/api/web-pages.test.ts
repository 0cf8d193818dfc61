// The operator page and the set-password page as served: their headers (a CSP without
// inline script, no Referer, no cached copy of the page), a label for every input, their
// script and style files, and a setup token in the page's address that never reaches
// the request log, not even through a Referer.
import assert from 'node:assert/strict';
import { ASSET_FILES, ASSET_PATHS } from '../../api/web/pages';
import { startApi, type TestApi } from '../support/api';
import { capturedLogger } from '../support/captured-log';

describe('web pages', () => {
  const log = capturedLogger('info');
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({}, { logger: log.logger });
  });
  afterAll(() => api?.stop());

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(api.baseUrl + path, { headers });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  for (const path of ['/admin/trial-requests', '/setup-password']) {
    it(`${path}: an HTML shell with the page headers, its own script and a label for every input`, async () => {
      const res = await get(path);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
      const csp = res.headers.get('content-security-policy') ?? '';
      for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]) {
        assert.ok(csp.includes(directive), `${directive} in ${csp}`);
      }
      assert.equal(csp.includes('unsafe-inline'), false);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(res.headers.get('cache-control'), 'no-store');

      // no inline script or style: every <script> has a src of ours, no style="" anywhere
      const scripts = [...res.text.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
      assert.ok(scripts.length >= 1);
      for (const attrs of scripts) assert.match(attrs, /src="\/[^/]/);
      assert.equal(/\sstyle=|<style/.test(res.text), false);
      assert.equal(/https?:\/\//.test(res.text), false, 'no external address');

      const ids = [...res.text.matchAll(/<(?:input|select|textarea)\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
      assert.ok(ids.length >= 2);
      for (const id of ids) assert.ok(res.text.includes(`<label for="${id}"`), `a label for #${id}`);
      assert.equal(/<a\b[^>]*onclick|<div[^>]*role="button"/.test(res.text), false, 'buttons are <button>');
      assert.ok(res.text.includes('aria-live="polite"'));

      const head = await fetch(api.baseUrl + path, { method: 'HEAD' });
      assert.equal(head.status, 200);
      const post = await fetch(api.baseUrl + path, { method: 'POST' });
      assert.equal(post.status, 405);
    });
  }

  it('the script and style files: their types, revalidated with an ETag', async () => {
    const paths = Object.keys(ASSET_FILES);
    for (const path of Object.values(ASSET_PATHS)) assert.ok(paths.includes(path), `${path} is served`);
    for (const path of paths) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', path.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      const etag = res.headers.get('etag');
      assert.ok(etag);
      assert.equal((await get(path, { 'if-none-match': etag })).status, 304);
      // every module a script imports is served at the address its import names
      for (const [, spec] of res.text.matchAll(/^import\b[^'"]*['"]([^'"]+)['"]/gm)) {
        const imported = new URL(spec, api.baseUrl + path).pathname;
        assert.ok(paths.includes(imported), `${path} imports ${spec}: ${imported} is not served`);
      }
    }
    assert.equal((await get('/assets/nothing.js')).status, 404);
    assert.equal((await get('/assets/admin/api.js')).status, 404, 'only the listed addresses');
  });

  it('the setup token of the page address reaches no log line, nor does a Referer repeating it', async () => {
    const token = 'Tk_' + 'q'.repeat(40);
    const page = `/setup-password?token=${token}`;
    assert.equal((await get(page)).status, 200);
    assert.equal((await get('/assets/setup-password.js', { referer: `${api.baseUrl}${page}` })).status, 200);
    const requests = log.lines().filter((l) => l.msg === 'request');
    const pageLine = requests.find((l) => l.req.path === '/setup-password');
    assert.ok(pageLine, 'the page request is logged');
    const assetLine = requests.find((l) => l.req.path === '/assets/setup-password.js' && l.req.headers.referer);
    assert.equal(assetLine?.req.headers.referer, `${api.baseUrl}/setup-password`);
    assert.equal(log.text().includes(token), false, 'the token reached the log');
    assert.equal(log.text().includes('q'.repeat(20)), false);
  });
});
