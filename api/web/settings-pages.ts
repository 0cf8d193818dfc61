// The settings pages (docs/settings.md, "The pages") as static HTML shells: a workspace's
// data is filled in by their modules (api/web/assets/settings/) from the APIs' own routes,
// called with the session cookie, so nothing here is rendered from input and no inline
// script or style exists (the pages' CSP forbids both).

import { pageHead } from './page-head';

/**
 * Where the settings pages' files are served, and from which file of api/web/assets. As
 * for the operator page, a module's address mirrors its place under assets/ (they import
 * `../../assets/dom.js` and `../../assets/session.js`).
 */
export const SETTINGS_ASSET_FILES: Readonly<Record<string, string>> = {
  '/settings/assets/settings.css': 'settings/settings.css',
  '/settings/assets/ui.js': 'settings/ui.js',
  '/settings/assets/page.js': 'settings/page.js',
  '/settings/assets/sign-in.js': 'settings/sign-in.js',
  '/settings/assets/keys.js': 'settings/keys.js',
  '/settings/assets/tokens.js': 'settings/tokens.js',
  '/settings/assets/webhooks.js': 'settings/webhooks.js',
  '/settings/assets/webhook-calls.js': 'settings/webhook-calls.js',
  '/settings/assets/endpoint-card.js': 'settings/endpoint-card.js',
  '/settings/assets/deliveries.js': 'settings/deliveries.js',
  '/settings/assets/ticketing.js': 'settings/ticketing.js',
  '/settings/assets/platform.js': 'settings/platform.js',
};

const head = (title: string, script: string | null) =>
  pageHead(title, { stylesheets: ['/assets/pages.css', '/settings/assets/settings.css'], script });

/** The header of a signed-in page: where you are, with which credential, and the way out. */
const signedInHeader = (title: string) => `<header class="settings-header">
  <div>
    <p class="crumb"><a href="/settings">Settings</a></p>
    <h1>${title}</h1>
  </div>
  <p id="session-line" class="session-line" hidden>Signed in with <strong id="session-label"></strong>
    <span id="session-env" class="badge"></span>
    <button type="button" class="secondary" id="sign-out">Sign out</button></p>
</header>`;

/** The one confirmation dialog of a page: the modules fill its title, text and button. */
const CONFIRM_DIALOG = `<dialog id="confirm-dialog" aria-labelledby="confirm-title" aria-describedby="confirm-text">
  <h2 id="confirm-title"></h2>
  <p id="confirm-text"></p>
  <div class="dialog-buttons">
    <button type="button" class="secondary" id="confirm-cancel">Cancel</button>
    <button type="button" class="danger" id="confirm-ok"></button>
  </div>
</dialog>`;

const STATUS = '<div id="status" class="notice" role="status" aria-live="polite"></div>';
const NOSCRIPT = '<noscript><p class="error">These pages need JavaScript.</p></noscript>';

export const SETTINGS_SIGN_IN_PAGE = `${head('Settings · sign in', '/settings/assets/sign-in.js')}
<body>
<main class="narrow">
  <h1>Workspace settings</h1>
  ${NOSCRIPT}
  ${STATUS}
  <section id="sign-in-section" aria-labelledby="sign-in-title" hidden>
    <h2 id="sign-in-title">Sign in</h2>
    <p class="hint">With an admin credential of the workspace's API. The page sends it once to start a
      session and keeps no copy; the session ends when you sign out or stay idle.</p>
    <form id="sign-in" class="stack" method="post" novalidate>
      <fieldset>
        <legend>Workspace</legend>
        <div class="choice"><input type="radio" name="api" id="api-ticketing" value="ticketing" checked>
          <label for="api-ticketing">Ticketing workspace</label></div>
        <div class="choice"><input type="radio" name="api" id="api-platform" value="platform">
          <label for="api-platform">Platform workspace</label></div>
      </fieldset>
      <label for="credential">Admin credential</label>
      <input id="credential" name="credential" type="password" autocomplete="off" spellcheck="false" required aria-describedby="credential-hint">
      <p id="credential-hint" class="hint">Ticketing: a key with admin:all (sk_live_… or sk_test_…) or its access token.
        Platform: an admin's token (service_live_… or service_test_…).</p>
      <p id="sign-in-error" class="error" role="alert"></p>
      <button type="submit">Sign in</button>
    </form>
  </section>
</main>
</body>
</html>
`;

/** A workspace's page: the signed-in header, its sections' links, its sections, the confirmation dialog. */
const workspacePage = (o: { title: string; script: string; heading: string; nav: string; sections: string }) => `${head(o.title, o.script)}
<body>
${signedInHeader(o.heading)}
<nav class="section-nav" aria-label="Sections">${o.nav}</nav>
<main>
  ${NOSCRIPT}
  ${STATUS}
${o.sections}
</main>
${CONFIRM_DIALOG}
</body>
</html>
`;

export const SETTINGS_TICKETING_PAGE = workspacePage({
  title: 'Settings · ticketing workspace',
  script: '/settings/assets/ticketing.js',
  heading: 'Ticketing workspace',
  nav: '<a href="#keys-title">API keys</a> <a href="#webhooks-title">Webhook endpoints</a>',
  sections: `  <section id="keys-section" aria-labelledby="keys-title" hidden>
    <h2 id="keys-title" tabindex="-1">API keys</h2>
    <div id="keys-secret"></div>
    <details id="new-key">
      <summary>Create an API key</summary>
      <form id="create-key" class="stack" method="post" novalidate>
        <label for="key-name">Name</label>
        <input id="key-name" name="name" type="text" maxlength="100" required>
        <label for="key-environment">Environment</label>
        <select id="key-environment" name="environment"><option value="test">test</option><option value="live">live</option></select>
        <fieldset id="key-scopes"><legend>Scopes</legend></fieldset>
        <p id="create-key-error" class="error" role="alert"></p>
        <button type="submit">Create key</button>
      </form>
    </details>
    <p id="keys-empty" class="empty" hidden>No API keys yet. Create one above; its secret is shown once.</p>
    <div class="table-wrap"><table id="keys">
      <caption>Newest first; revoked keys stay listed.</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Scopes</th><th scope="col">Environment</th>
        <th scope="col">Last used</th><th scope="col">Created</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead>
      <tbody></tbody>
    </table></div>
  </section>

  <section id="webhooks-section" aria-labelledby="webhooks-title" hidden>
    <h2 id="webhooks-title" tabindex="-1">Webhook endpoints</h2>
    <form id="workspace-form" class="inline" method="get" hidden>
      <div><label for="workspace-id">Workspace id</label>
        <input id="workspace-id" name="workspace" type="text" maxlength="100" required aria-describedby="workspace-hint"></div>
      <button type="submit">Show its endpoints</button>
      <p id="workspace-hint" class="hint">This key reaches every workspace of the organisation: name the one to manage.</p>
    </form>
    <div id="webhooks"></div>
  </section>`,
});

export const SETTINGS_PLATFORM_PAGE = workspacePage({
  title: 'Settings · platform workspace',
  script: '/settings/assets/platform.js',
  heading: 'Platform workspace',
  nav: '<a href="#tokens-title">Tokens</a> <a href="#webhooks-title">Webhook endpoints</a>',
  sections: `  <section id="tokens-section" aria-labelledby="tokens-title" hidden>
    <h2 id="tokens-title" tabindex="-1">Tokens</h2>
    <div id="tokens-secret"></div>
    <details id="new-token">
      <summary>Create a token</summary>
      <form id="create-token" class="stack" method="post" novalidate>
        <label for="token-name">Name</label>
        <input id="token-name" name="name" type="text" maxlength="200" required>
        <label for="token-environment">Environment</label>
        <select id="token-environment" name="environment"><option value="test">test</option><option value="live">live</option></select>
        <label for="token-expiry">Expires</label>
        <select id="token-expiry" name="expires">
          <option value="30">in 30 days</option><option value="60">in 60 days</option>
          <option value="90" selected>in 90 days</option><option value="">never</option>
        </select>
        <p class="hint">The token acts for you, with your role, in this workspace.</p>
        <p id="create-token-error" class="error" role="alert"></p>
        <button type="submit">Create token</button>
      </form>
    </details>
    <p id="tokens-empty" class="empty" hidden>No tokens yet. Create one above; its secret is shown once.</p>
    <div class="table-wrap"><table id="tokens">
      <caption>Newest first. A compromised token: revoke it here.</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Environment</th><th scope="col">Prefix</th><th scope="col">Creator</th>
        <th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead>
      <tbody></tbody>
    </table></div>
  </section>

  <section id="webhooks-section" aria-labelledby="webhooks-title" hidden>
    <h2 id="webhooks-title" tabindex="-1">Webhook endpoints</h2>
    <div id="webhooks"></div>
  </section>`,
});

/** A GET of an unknown /settings/… address: a page that says so, not the APIs' JSON 404. */
export const SETTINGS_NOT_FOUND_PAGE = `${head('Settings · page not found', null)}
<body>
<main class="narrow">
  <h1>Page not found</h1>
  <p>There is no settings page at this address.</p>
  <p><a href="/settings">Go to the settings sign-in</a>, or to the
    <a href="/settings/ticketing">ticketing</a> or <a href="/settings/platform">platform</a> workspace.</p>
</main>
</body>
</html>
`;
