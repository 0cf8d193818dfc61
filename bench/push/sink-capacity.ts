// The push sink's raw capacity from the command line (the measurement itself is in
// scripts/push-sink/capacity.ts, beside the sink, which the push bench and the sink's test share):
//
//   tsx bench/push/sink-capacity.ts            starts a sink process of its own (temp dir)
//   tsx bench/push/sink-capacity.ts <url>      measures a running sink (it must trust the
//                                              checkout's demo credentials)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureSinkCapacity, startSinkProcess } from '../../scripts/push-sink/capacity';

async function main() {
  let url = process.argv[2];
  let stop = async () => {};
  const dir = mkdtempSync(join(tmpdir(), 'push-capacity-'));
  if (!url) ({ url, stop } = await startSinkProcess(dir));
  try {
    for (const service of ['apns', 'fcm'] as const) console.log(JSON.stringify(await measureSinkCapacity({ url, service })));
  } finally {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err: Error) => {
    console.error(err.message);
    process.exit(1);
  });
}
