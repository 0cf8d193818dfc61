// The two web pages as static HTML shells: everything that depends on data is filled in
// by their script (api/web/assets) from the push API, so nothing here is rendered from
// input and no inline script or style exists (the pages' CSP forbids both).
import { pageHead } from './page-head';
import { SETTINGS_ASSET_FILES } from './settings-pages';

const head = (title: string, script: string) => pageHead(title, { stylesheets: [ASSET_PATHS.css], script });

/**
 * Where the pages' files are served, and from which file of api/web/assets (api/web/router.ts
 * serves exactly these). The scripts are ES modules that import each other by relative
 * address, so a file's place under assets/ mirrors its address: the operator page's
 * modules (admin/) under /admin/assets/, the set-password page's and the shared ones
 * (http.js: calls to the API; dom.js: DOM helpers) under /assets/.
 */
export const ASSET_FILES: Readonly<Record<string, string>> = {
  '/assets/pages.css': 'pages.css',
  '/assets/http.js': 'http.js',
  '/assets/session.js': 'session.js',
  '/assets/dom.js': 'dom.js',
  '/assets/setup-password.js': 'setup-password.js',
  '/admin/assets/trial-requests.js': 'admin/trial-requests.js',
  '/admin/assets/api.js': 'admin/api.js',
  '/admin/assets/session.js': 'admin/session.js',
  '/admin/assets/table.js': 'admin/table.js',
  '/admin/assets/actions.js': 'admin/actions.js',
  // the settings pages' files (api/web/settings-pages.ts)
  ...SETTINGS_ASSET_FILES,
};

/** The files a page names itself (the modules load the rest by their imports). */
export const ASSET_PATHS = {
  css: '/assets/pages.css',
  admin: '/admin/assets/trial-requests.js',
  setup: '/assets/setup-password.js',
} as const;

export const ADMIN_PAGE = `${head('Trial requests · operator', ASSET_PATHS.admin)}
<body>
<header>
  <h1>Trial requests</h1>
  <p id="session" hidden>Signed in as <strong id="session-email"></strong> <button type="button" class="secondary" id="sign-out">Sign out</button></p>
</header>
<main>
  <div id="status" class="notice" role="status" aria-live="polite"></div>

  <section id="sign-in-section" class="narrow" aria-labelledby="sign-in-title">
    <h2 id="sign-in-title">Sign in</h2>
    <p class="hint">For super-admin accounts of the push service.</p>
    <noscript><p class="error">This page needs JavaScript.</p></noscript>
    <form id="sign-in" class="stack" method="post">
      <label for="sign-in-email">Email</label>
      <input id="sign-in-email" name="email" type="email" autocomplete="username" required>
      <label for="sign-in-password">Password</label>
      <input id="sign-in-password" name="password" type="password" autocomplete="current-password" required>
      <p id="sign-in-error" class="error" role="alert"></p>
      <button type="submit">Sign in</button>
    </form>
  </section>

  <section id="requests-section" aria-labelledby="requests-title" hidden>
    <h2 id="requests-title">Requests</h2>
    <form id="filter" class="inline" method="get">
      <div>
        <label for="status-filter">Status</label>
        <select id="status-filter" name="status">
          <option value="">All</option>
          <option value="Submitted">Submitted</option>
          <option value="Approved">Approved</option>
          <option value="Rejected">Rejected</option>
        </select>
      </div>
      <button type="submit">Show</button>
      <button type="button" class="secondary" id="refresh">Refresh</button>
    </form>
    <p id="list-error" class="error" role="alert"></p>
    <div class="table-wrap">
    <table id="requests">
      <caption id="requests-caption">Newest first.</caption>
      <colgroup>
        <col class="col-created"><col class="col-company"><col class="col-name"><col class="col-email"><col class="col-plan">
        <col class="col-status"><col class="col-setup-email"><col class="col-trial"><col class="col-actions">
      </colgroup>
      <thead>
        <tr>
          <th scope="col">Created</th>
          <th scope="col">Company</th>
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">Requested plan</th>
          <th scope="col">Status</th>
          <th scope="col">Setup email</th>
          <th scope="col">Trial ends / company</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody></tbody>
    </table>
    </div>
    <nav class="pager" aria-label="Pages">
      <button type="button" class="secondary" id="prev-page">Previous page</button>
      <span id="page-info"></span>
      <button type="button" class="secondary" id="next-page">Next page</button>
    </nav>
  </section>
</main>
</body>
</html>
`;

export const SETUP_PAGE = `${head('Set your password', ASSET_PATHS.setup)}
<body>
<main class="narrow">
  <h1>Set your password</h1>
  <noscript><p class="error">This page needs JavaScript.</p></noscript>
  <div id="status" class="notice" role="status" aria-live="polite">Checking your link…</div>

  <section id="invalid" aria-labelledby="invalid-title" hidden>
    <h2 id="invalid-title">This link cannot be used</h2>
    <p>The link has expired, was already used, or was replaced by a newer one.
      Ask the operator who approved your trial for a new link.</p>
  </section>

  <section id="form-section" aria-labelledby="form-title" hidden>
    <h2 id="form-title">Set the password for <span id="who-email"></span> (<span id="who-name"></span>, <span id="who-company"></span>)</h2>
    <p>This link is valid until <time id="expires"></time>, and only once.</p>
    <form id="set-password" class="stack" method="post" novalidate>
      <!-- for password managers: the account the new password belongs to -->
      <input name="username" type="email" autocomplete="username" hidden readonly>
      <label for="password">New password</label>
      <input id="password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="256" required aria-describedby="password-hint">
      <p id="password-hint" class="hint">At least 8 characters, at most 256.</p>
      <label for="confirm">Repeat the password</label>
      <input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="8" maxlength="256" required>
      <p id="form-error" class="error" role="alert"></p>
      <button type="submit">Set password</button>
    </form>
  </section>

  <section id="done" aria-labelledby="done-title" hidden>
    <h2 id="done-title">Your password is set</h2>
    <p id="signed-in"></p>
    <p>From now on, sign in with your email and this password.</p>
  </section>
</main>
</body>
</html>
`;
