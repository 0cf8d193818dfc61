// The import rules of docs/architecture.md, checked by `npm run lint:deps` (part of
// `npm test`). Layers, bottom up: lib → domain ⇄ db (types only upwards) → workflows
// (pure) → activities → api → workers; scripts, bench and test sit on top.
const LAYERS_ABOVE_DOMAIN = '^(workflows|activities|api|workers|scripts|bench|test)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'lib-imports-only-lib',
      comment: 'lib/ is the bottom layer: pure utilities, config, crypto, protocol clients.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(domain|db|workflows|activities|api|workers|scripts|bench|test)/' },
    },
    {
      name: 'domain-imports-nothing-above',
      comment: 'domain/ holds records, rules and commands; it knows no Temporal, no HTTP, no caller.',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: [LAYERS_ABOVE_DOMAIN, '(^|/)node_modules/(@temporalio|koa|@koa)/'] },
    },
    {
      name: 'db-imports-no-caller',
      comment: 'db/ (entities, migrations, repositories) takes its types from lib/ and domain/, never from a caller.',
      severity: 'error',
      from: { path: '^db/' },
      to: { path: LAYERS_ABOVE_DOMAIN },
    },
    {
      name: 'workflow-code-is-pure',
      comment:
        'Workflow code imports only the SDK, contracts, pure logic and pure domain/lib files: nothing that reaches the database, HTTP or an activity implementation (the workflow bundle must stay deterministic).',
      severity: 'error',
      from: { path: '^workflows/' },
      to: {
        path: ['^(db|activities|api|workers|scripts|bench|test)/', '(^|/)node_modules/(typeorm|pg|ioredis|koa|@koa|firebase-admin|nodemailer|pino)/'],
        reachable: true,
      },
    },
    {
      name: 'workflow-code-uses-only-the-workflow-sdk',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: '(^|/)node_modules/@temporalio/(workflow|common)/' },
    },
    {
      name: 'activities-import-no-caller',
      severity: 'error',
      from: { path: '^activities/' },
      to: { path: '^(api|workers|scripts|bench|test)/' },
    },
    {
      name: 'api-never-imports-activities',
      comment: 'The API talks to workflows through their contracts and to state through domain/ and db/.',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: '^(activities|workers|scripts|bench|test)/' },
    },
    {
      name: 'one-api-never-imports-another',
      comment: 'Each API keeps its own conventions; what they share lives in api/kit.',
      severity: 'error',
      from: { path: '^api/(ticketing|push|platform)/' },
      to: { path: '^api/(ticketing|push|platform)/', pathNot: '^api/$1/' },
    },
    {
      name: 'web-pages-call-the-api-over-http',
      comment:
        'The pages (api/web) are static shells whose scripts call the APIs like any client: they import no API resource, domain, database or workflow code. /settings/session (api/web/session-routes.ts) checks credentials only through the sign-in verifiers api/app.ts injects (docs/settings.md, "Sessions").',
      severity: 'error',
      from: { path: '^api/web/' },
      to: { path: '^(api/(ticketing|push|platform)|domain|db|workflows)/' },
    },
    {
      name: 'kit-session-keeps-ids-only',
      comment:
        'The settings sessions (api/kit/session) store ids and check nothing themselves: each API resolves the credential behind a session with its own code, so the kit reads no credential table (docs/settings.md, "Sessions").',
      severity: 'error',
      from: { path: '^api/kit/session/' },
      to: { path: '^(db|domain)/' },
    },
    {
      name: 'kit-serves-every-api',
      severity: 'error',
      from: { path: '^api/kit/' },
      to: { path: '^api/(ticketing|push|platform|web)/' },
    },
    {
      name: 'workers-never-import-the-api',
      severity: 'error',
      from: { path: '^workers/' },
      to: { path: '^(api|scripts|bench|test)/' },
    },
    {
      name: 'tests-never-import-bench',
      severity: 'error',
      from: { path: '^test/' },
      to: { path: '^bench/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle (say a domain command and the repository that takes its types) makes the layers meaningless.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(\\.data|\\.tools|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.json'] },
  },
};
