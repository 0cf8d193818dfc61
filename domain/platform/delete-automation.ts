// DELETE /automations/{id}: a manager or an admin who sees the rule removes it for good
// (also while its workspace is pending deletion: the purge would remove it anyway). A
// ticket step that meets the rule afterwards skips it.
import type { Db } from '../../db/db';
import { deletePlatformAutomation } from '../../db/repositories/platform-automations';
import type { PlatformCaller } from './access.rules';
import { lockOwnAutomation } from './change-automation';
import type { PlatformEnvironment } from './types';

export async function deletePlatformAutomationOf(db: Db, caller: PlatformCaller & { environment: PlatformEnvironment }, id: string): Promise<void> {
  await db.transaction(async (m) => {
    await lockOwnAutomation(m, caller, id);
    await deletePlatformAutomation(m, id);
  });
}
