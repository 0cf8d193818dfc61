// The `npm start` supervisor with real child processes: a killed child comes back while
// the others keep running, a crash loop gives up, and a stop leaves nothing behind.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Supervisor, type ChildSpec, type SupervisorOptions } from '../../scripts/supervisor';
import { eventually } from '../support/eventually';

import { readFileSync } from 'node:fs';

/** Running (a zombie, which a container's init may never reap, counts as gone). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

const until = <T>(what: string, probe: () => T | undefined | false, timeoutMs = 15_000): Promise<T> =>
  eventually(probe, { what, timeoutMs, everyMs: 25 });

/** A node child that prints its pid, then runs `body` (JavaScript). */
const nodeChild = (name: string, body = 'setInterval(() => {}, 1000);', extra: Partial<ChildSpec> = {}): ChildSpec => ({
  name,
  command: process.execPath,
  args: ['-e', `console.log('pid ' + process.pid); ${body}`],
  ...extra,
});

function recorder(opts: Partial<SupervisorOptions> = {}) {
  const lines: Array<{ name: string; line: string }> = [];
  const notices: string[] = [];
  const gaveUp: string[] = [];
  const sup = new Supervisor({
    output: (name, line) => lines.push({ name, line }),
    notice: (m) => notices.push(m),
    onGiveUp: (name, message) => gaveUp.push(`${name}: ${message}`),
    restart: { initialDelayMs: 20, maxDelayMs: 200 },
    stopGraceMs: 2_000,
    ...opts,
  });
  const pidsOf = (name: string) => lines.filter((l) => l.name === name && l.line.startsWith('pid ')).map((l) => Number(l.line.slice(4)));
  return { sup, lines, notices, gaveUp, pidsOf };
}

describe('npm start supervisor', () => {
  it('restarts a child killed with SIGKILL and logs it, while the others keep running', async () => {
    const r = recorder();
    r.sup.supervise(nodeChild('worker'));
    r.sup.supervise(nodeChild('api'));
    try {
      const [workerPid] = await until('worker up', () => r.pidsOf('worker').length === 1 && r.pidsOf('worker'));
      const [apiPid] = await until('api up', () => r.pidsOf('api').length === 1 && r.pidsOf('api'));
      process.kill(workerPid, 'SIGKILL');
      const pids = await until('worker restarted', () => r.pidsOf('worker').length === 2 && r.pidsOf('worker'));
      assert.notEqual(pids[1], workerPid);
      assert.ok(alive(pids[1]));
      assert.ok(alive(apiPid), 'the other child kept running');
      assert.deepEqual(r.pidsOf('api'), [apiPid], 'the other child was not restarted');
      assert.ok(r.notices.some((n) => n.includes('worker exited (signal SIGKILL)')), r.notices.join('\n'));
      assert.ok(r.notices.some((n) => /^restarting worker in /.test(n)), r.notices.join('\n'));
      assert.deepEqual(r.gaveUp, []);
    } finally {
      await r.sup.stop();
    }
  });

  it('gives up on a crash loop (5 deaths within a minute) with a clear message', async () => {
    const r = recorder();
    r.sup.supervise(nodeChild('broken', 'process.exit(3);'));
    r.sup.supervise(nodeChild('healthy'));
    try {
      await until('give-up', () => r.gaveUp.length > 0);
      assert.equal(r.pidsOf('broken').length, 5, 'started five times, then no more');
      assert.match(r.gaveUp[0], /^broken: broken died 5 times within 60 s: a crash loop, giving up/);
      await new Promise((res) => setTimeout(res, 300)); // more than the longest backoff of this policy
      assert.equal(r.pidsOf('broken').length, 5);
      assert.equal(r.gaveUp.length, 1);
    } finally {
      await r.sup.stop();
    }
  });

  it('stops every child, by stop order, even one that ignores SIGTERM, and its grandchildren', async () => {
    const r = recorder({ stopGraceMs: 500 });
    // order 0 says goodbye slowly; order 1 (the Temporal server's place) must still be up then
    r.sup.supervise(nodeChild('api', "process.on('SIGTERM', () => setTimeout(() => { console.log('bye'); process.exit(0); }, 200)); setInterval(() => {}, 1000);"));
    r.sup.supervise(nodeChild('temporal', "process.on('SIGTERM', () => { console.log('term'); process.exit(0); }); setInterval(() => {}, 1000);", { stopOrder: 1 }));
    r.sup.supervise(nodeChild('stubborn', "process.on('SIGTERM', () => console.log('ignored')); setInterval(() => {}, 1000);"));
    const grandchild = "const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log('grandchild ' + c.pid); setInterval(() => {}, 1000);";
    r.sup.supervise(nodeChild('parent', grandchild));
    const names = ['api', 'temporal', 'stubborn', 'parent'];
    await until('all up', () => names.every((n) => r.pidsOf(n).length === 1));
    const grand = Number((await until('grandchild', () => r.lines.find((l) => l.line.startsWith('grandchild ')))).line.split(' ')[1]);
    const pids = names.map((n) => r.pidsOf(n)[0]).concat(grand);

    await r.sup.stop();
    for (const pid of pids) await until(`pid ${pid} gone`, () => !alive(pid), 5_000);
    const seq = r.lines.filter((l) => ['bye', 'term', 'ignored'].includes(l.line)).map((l) => `${l.name}:${l.line}`);
    assert.ok(seq.indexOf('api:bye') >= 0 && seq.indexOf('api:bye') < seq.indexOf('temporal:term'), seq.join(', '));
    assert.ok(r.notices.every((n) => !n.startsWith('restarting')), 'nothing is restarted while stopping');
    // a child asked for after the stop is not started
    assert.equal((await r.sup.runOnce(nodeChild('late'))).code, 143);
    assert.deepEqual(r.pidsOf('late'), []);
  });

  it('children do not outlive a supervisor killed with SIGKILL', async () => {
    const fixture = join(__dirname, '..', 'support', 'supervisor-fixture.ts');
    const proc = spawn(process.execPath, ['--import', 'tsx', fixture], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    const childPid = Number((await until('fixture child', () => /child pid (\d+)/.exec(out), 30_000))![1]);
    assert.ok(alive(childPid));
    proc.kill('SIGKILL');
    await until(`child ${childPid} gone after its supervisor was killed`, () => !alive(childPid), 10_000);
  });
});
