import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Router from '@koa/router';
import type { Context } from 'koa';
import { pageHeaders } from './page-headers';
import { ADMIN_PAGE, ASSET_FILES, SETUP_PAGE } from './pages';
import { SETTINGS_NOT_FOUND_PAGE, SETTINGS_PLATFORM_PAGE, SETTINGS_SIGN_IN_PAGE, SETTINGS_TICKETING_PAGE } from './settings-pages';

interface Asset {
  body: string;
  type: string;
  etag: string;
}

const TYPES: Readonly<Record<string, string>> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

function asset(file: string): Asset {
  const type = TYPES[file.slice(file.lastIndexOf('.') + 1)];
  if (!type) throw new Error(`api/web/assets/${file}: no content type for its ending`);
  const body = readFileSync(join(__dirname, 'assets', file), 'utf8');
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/**
 * The operator page (`/admin/trial-requests`) and the set-password page
 * (`/setup-password?token=…`) with their script and style files, served by the API host
 * so that their calls to /api/v1 are same-origin (docs/trial-onboarding.md, "The pages").
 * The pages are static shells; they hold no data and need no session on the server.
 */
export function webRouter(): Router {
  const router = new Router();
  // read once at start: only the listed files, never a path taken from the request
  const assets = Object.entries(ASSET_FILES).map(([path, file]) => [path, asset(file)] as const);

  const page = (html: string) => (ctx: Context) => {
    pageHeaders(ctx);
    // the set-password page is opened with a token; neither page is worth a cached copy
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  };
  router.get('/admin/trial-requests', page(ADMIN_PAGE));
  router.get('/setup-password', page(SETUP_PAGE));
  // the settings pages (docs/settings.md, "The pages")
  router.get('/settings', page(SETTINGS_SIGN_IN_PAGE));
  router.get('/settings/ticketing', page(SETTINGS_TICKETING_PAGE));
  router.get('/settings/platform', page(SETTINGS_PLATFORM_PAGE));

  for (const [path, a] of assets) {
    router.get(path, (ctx) => {
      pageHeaders(ctx);
      // revalidated on every load: a deploy changes them in place (no build step, no hashed names)
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('ETag', a.etag);
      if (ctx.get('If-None-Match') === a.etag) {
        ctx.status = 304;
        return;
      }
      ctx.type = a.type;
      ctx.body = a.body;
    });
  }

  // Any other address under /settings (a typo, an old link) is a page that says so, not
  // the APIs' JSON 404; the session's JSON endpoints (/settings/session) are not pages.
  const notFound = page(SETTINGS_NOT_FOUND_PAGE);
  router.get(/^\/settings\/(?!session(?:\/|$)).+/, (ctx) => {
    notFound(ctx);
    ctx.status = 404;
  });
  return router;
}
