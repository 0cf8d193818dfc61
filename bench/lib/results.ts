import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Machine } from './stack';

/**
 * The writer every benchmark calls after each phase and at the end, so a run stopped half
 * way still leaves its numbers: `<name>.json` and `<name>.md` in `dir`, the wall time,
 * the closing load average and the aims checked again. Returns the Markdown.
 */
export function resultsWriter<R extends { wallSeconds: number; targets?: unknown }>(o: {
  dir: string;
  name: string;
  t0: number;
  machine: Machine;
  results: R;
  checkTargets: (r: R) => R['targets'];
  toMarkdown: (r: R) => string;
}): () => string {
  return () => {
    o.results.wallSeconds = (Date.now() - o.t0) / 1000;
    o.machine.loadAvgEnd = Math.round(loadavg()[0] * 100) / 100;
    o.results.targets = o.checkTargets(o.results);
    writeFileSync(join(o.dir, `${o.name}.json`), JSON.stringify(o.results, null, 2));
    const md = o.toMarkdown(o.results);
    writeFileSync(join(o.dir, `${o.name}.md`), md + '\n');
    return md;
  };
}
