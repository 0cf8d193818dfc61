// Where the suite's push sink (started beside the suite by scripts/test-services.sh)
// writes what it accepts.
import { join, resolve } from 'node:path';

export function pushSinkDir(): string {
  return process.env.PUSH_SINK_DIR ?? join(resolve(__dirname, '../..'), '.data', 'test-push');
}
