// The <head> every page shares: no referrer (the set-password page's address carries its
// token), its stylesheets and its one module script; no inline script or style (the
// pages' CSP forbids both).

export function pageHead(title: string, opts: { stylesheets: readonly string[]; script: string | null }): string {
  const links = opts.stylesheets.map((href) => `<link rel="stylesheet" href="${href}">\n`).join('');
  const script = opts.script ? `<script type="module" src="${opts.script}"></script>\n` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
${links}${script}</head>`;
}
