// The conventions of docs/conventions.md that the type checker cannot see: a command's
// refusals are made by its area's errors.ts, and raw SQL goes through sql() (an
// EntityManager's query() answers in another shape than { rows, rowCount }).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourcesUnder(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

test('domain commands refuse through their area’s errors.ts factories', () => {
  const commands = sourcesUnder('domain').filter((f) => !f.endsWith('errors.ts'));
  assert.ok(commands.length > 40, 'the walk found the domain files');
  const offenders = commands
    .filter((f) => /new DomainError\(/.test(readFileSync(join(ROOT, f), 'utf8')));
  assert.equal(offenders.length, 0, `offenders: ${offenders.join(', ')}`);
});

test('repositories send raw SQL through sql(), not through an executor’s query()', () => {
  const repositories = sourcesUnder('db/repositories');
  assert.ok(repositories.length > 20, 'the walk found the repositories');
  const offenders = repositories.filter((f) => /\b(executor|ex|m|q|c|tx)\.query\b/.test(readFileSync(join(ROOT, f), 'utf8')));
  assert.equal(offenders.length, 0, `offenders: ${offenders.join(', ')}`);
});
