// CPU per component over a bench:push phase (bench/lib/cpu.ts reads /proc): the
// API, the worker, the sink, the register peer, this bench process (the load generator),
// and this checkout's own PostgreSQL cluster and Redis (by the postmaster's process
// group and the Redis port: other checkouts' servers on the same machine are not ours).
// On a shared machine, CPU seconds per request are steadier than requests per second.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../lib/stack';
import type { Child } from '../lib/procs';
import type { Groups } from '../lib/cpu';

function postmasterPid(): number | null {
  try {
    return Number(readFileSync(join(ROOT, '.data', 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
  } catch {
    return null; // not this checkout's cluster (DATABASE_URL elsewhere)
  }
}

function redisPid(redisUrl: string): number | null {
  const port = new URL(redisUrl).port || '6379';
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      if (cmd.startsWith('/usr/bin/redis-server') || cmd.startsWith('redis-server')) if (cmd.includes(`:${port}`)) return Number(d);
    } catch {
      /* gone */
    }
  }
  return null;
}

export function pushCpuGroups(children: Record<string, Child>, redisUrl: string): Groups {
  const pg = postmasterPid();
  const redis = redisPid(redisUrl);
  const groups: Groups = {
    // the postmaster and its children (each backend is a session of its own)
    Postgres: (p) => pg !== null && (p.pid === pg || p.ppid === pg),
    Redis: (p) => p.pid === redis,
    'load generator (bench)': (p) => p.pid === process.pid,
  };
  for (const [name, c] of Object.entries(children)) groups[name] = (p) => p.pgrp === c.proc.pid;
  return groups;
}
