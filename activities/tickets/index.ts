import type { Db } from '../../db/db';
import { findWorkspaceSettings } from '../../db/repositories/workspaces';
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
      const settings = await findWorkspaceSettings(db, workspaceId);
      if (!settings) throw Failures.workspaceNotFound(workspaceId);
      return resolveSettings(settings);
    },
  };
}
