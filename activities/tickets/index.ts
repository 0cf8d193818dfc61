import type { Db } from '../../db/db';
import { resolveSettings } from '../../lib/workspace-settings';
import type { TicketActivities } from '../../workflows/ticket/activities.contract';
import { Failures } from '../failures';
import { applyTicketChange } from './apply-change';
import { insertTicket } from './insert';
import { sendResolutionNotification, type Mailer } from './notify';
import { triageTicket, type Triager } from './triage';

/** The ticket workflow's activities over their dependencies (design principle 3). */
export function createTicketActivities(deps: { db: Db; triager: Triager; mailer: Mailer }): TicketActivities {
  const { db, triager, mailer } = deps;
  return {
    insertTicket: (input) => insertTicket(db, input),
    triageTicket: (input) => triageTicket(db, triager, input),
    applyTicketChange: (req) => applyTicketChange(db, req),
    sendResolutionNotification: (input) => sendResolutionNotification(db, mailer, input),
    async loadWorkspaceSettings({ workspaceId }) {
      const { rows } = await db.query('SELECT settings FROM workspaces WHERE id = $1', [workspaceId]);
      if (!rows[0]) throw Failures.workspaceNotFound(workspaceId);
      return resolveSettings(rows[0].settings);
    },
  };
}
