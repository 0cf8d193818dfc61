// `npm run fuzz` as part of `npm test`: the same script (scripts/fuzz.ts), schemathesis
// over every served OpenAPI document against its own throwaway stack. 0 failures.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

test('schemathesis finds 0 failures in every served OpenAPI document', async () => {
  const out: string[] = [];
  const code = await new Promise<number>((res) => {
    const p = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/fuzz.ts'], {
      cwd: ROOT,
      // the fuzz stack takes the dev database URL only to reach the server; it creates support_fuzz
      env: { ...process.env, FUZZ_MAX_EXAMPLES: process.env.FUZZ_MAX_EXAMPLES ?? '20' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    p.stdout.on('data', (d) => out.push(d.toString()));
    p.stderr.on('data', (d) => out.push(d.toString()));
    p.on('exit', (c) => res(c ?? 1));
  });
  const text = out.join('');
  assert.equal(code, 0, text.slice(-6000));
  for (const doc of ['/v1/openapi.json', '/platform/v1/openapi.json', '/api/v1/openapi.json']) {
    assert.match(text, new RegExp(`${doc.replace(/\//g, '\\/')}: 0 failures`));
  }
}, 400_000);
