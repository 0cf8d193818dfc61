// jest runs the whole suite (scripts/test.sh starts Postgres, Redis, Temporal, the mail
// sink and the workers first). Each folder under test/ is one tier, shown as a jest
// project: activities and lib (pure and loopback), db (real Postgres), workflows
// (time-skipping and replay), api and e2e (HTTP over real workers), … A new folder is a
// new tier without touching this file.
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

// @swc/jest: TypeScript with the decorators TypeORM entities use. Temporal bundles
// workflow code itself with webpack from the files on disk, outside jest's module
// registry, so nothing here touches workflow bundles.
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
        keepClassNames: true,
      },
      module: { type: 'commonjs' },
    },
  ],
};

const tiers = readdirSync(join(__dirname, 'test'))
  .filter((name) => name !== 'support' && statSync(join(__dirname, 'test', name)).isDirectory())
  .sort();

module.exports = {
  projects: tiers.map((tier) => ({
    displayName: tier,
    testEnvironment: 'node',
    roots: [`<rootDir>/test/${tier}`],
    testMatch: ['**/*.test.ts'],
    transform,
    moduleFileExtensions: ['ts', 'js', 'json'],
  })),
  maxWorkers: 2,
  testTimeout: 300_000,
  // worker processes, Temporal connections and timers some tests leave are not failures
  forceExit: false,
};
