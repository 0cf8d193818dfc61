import { existsSync, readFileSync } from 'node:fs';

/**
 * Fills in from a shell-sourceable env file (`export K='v'`, as scripts/ensure.sh writes
 * .data/env) whatever process.env does not already say: the environment always wins.
 */
export function loadEnvFile(path: string): void {
  if (!existsSync(path)) return;
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(raw);
    if (!m) continue;
    let v = m[2].trim();
    if (v.startsWith("'")) v = v.slice(1, -1).replace(/'\\''/g, "'");
    else if (v.startsWith('"')) v = v.slice(1, -1).replace(/\\(["\\$`])/g, '$1');
    process.env[m[1]] ??= v;
  }
}
