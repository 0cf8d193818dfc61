// An error on a page's address (a malformed address, a method no page serves, a page the
// server cannot answer right now) is an HTML page that says what happened, under the
// pages' headers, never the APIs' JSON: the error middleware's envelope for the page
// prefixes (api/app.ts). The session endpoints (/settings/session) keep their JSON.
import type { Context } from 'koa';
import type { ErrorEnvelope } from '../kit/envelopes';
import { pageHead } from './page-head';
import { pageHeaders } from './page-headers';

const TITLES: Readonly<Record<number, string>> = {
  400: 'This address cannot be read',
  404: 'Page not found',
  405: 'Not a page',
  413: 'Request too large',
  414: 'Address too long',
  429: 'Too many requests',
  503: 'Temporarily unavailable',
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function titleOf(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'This request cannot be answered');
}

/** Where a reader of the error page goes next: the section of the address's pages. */
const homeOf = (path: string) => (path.startsWith('/admin') ? '/admin/trial-requests' : '/settings');

export const pageErrorEnvelope: ErrorEnvelope = {
  present(err, ctx: Context) {
    pageHeaders(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    const title = titleOf(err.status);
    const retry = err.headers['Retry-After'] ? ` Try again in ${escapeHtml(String(err.headers['Retry-After']))} s.` : '';
    return `${pageHead(title, { stylesheets: ['/assets/pages.css'], script: null })}
<body>
<main class="narrow">
  <h1>${escapeHtml(title)}</h1>
  <p>${escapeHtml(err.message)}${retry}</p>
  <p><a href="${homeOf(ctx.path)}">Go back to the pages</a>.</p>
  <p class="hint">Error ${err.status}${ctx.state.requestId ? `, request ${escapeHtml(String(ctx.state.requestId))}` : ''}.</p>
</main>
</body>
</html>
`;
  },
};
