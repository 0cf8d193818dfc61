// The schemathesis configuration of `npm run fuzz`'s /platform/v1 pass (scripts/fuzz.ts):
// a ticket, a webhook endpoint and an automation made for the run and the bootstrap
// workspace's channels and users offered as ids, so the fuzzer walks past the lookups
// (changing, replying to, deleting and restoring them, rotating the endpoint's secret,
// reading its deliveries, changing the rule)
// instead of meeting only 404s.
import { writeFileSync } from 'node:fs';

/** Writes the configuration to `path` and answers it. */
export async function writePlatformFuzzConfig(base: string, creds: { adminToken: string; workspaceId: string }, path: string): Promise<string> {
  const headers = { authorization: `Bearer ${creds.adminToken}`, 'content-type': 'application/json' };
  const workspace = (await (await fetch(`${base}/platform/v1/workspaces/${creds.workspaceId}`, { headers })).json()) as { channels: Array<{ id: string }> };
  const users = (await (await fetch(`${base}/platform/v1/users`, { headers })).json()) as { data: Array<{ id: string }> };
  const ticket = await fetch(`${base}/platform/v1/tickets`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ subject: 'Fuzz', channel_id: workspace.channels[0].id, contact_email: 'fuzz@players.test' }),
  });
  if (!ticket.ok) throw new Error(`could not create the fuzz platform ticket: ${ticket.status} ${await ticket.text()}`);
  const ticketId = ((await ticket.json()) as { id: string }).id;
  // an https URL on a public name, as the URL policy wants (a name that does not resolve here is accepted too)
  const webhook = await fetch(`${base}/platform/v1/webhooks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: 'https://hooks.example.com/fuzz', events: ['ticket.created', 'ticket.updated'] }),
  });
  if (!webhook.ok) throw new Error(`could not create the fuzz platform webhook: ${webhook.status} ${await webhook.text()}`);
  const webhookId = ((await webhook.json()) as { id: string }).id;
  // an automation rule, so PATCH and DELETE /automations/{id} are walked past their 404
  const automation = await fetch(`${base}/platform/v1/automations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Fuzz', trigger: 'ticket.updated', actions: [{ type: 'add_tag', value: 'fuzz' }] }),
  });
  if (!automation.ok) throw new Error(`could not create the fuzz platform automation: ${automation.status} ${await automation.text()}`);
  const automationId = ((await automation.json()) as { id: string }).id;
  const quoted = (ids: string[]) => ids.map((id) => `"${id}"`).join(', ');
  const userIds = users.data.map((u) => u.id);
  writeFileSync(
    path,
    [
      '[dictionaries.workspace]',
      `values = ["${creds.workspaceId}"]`,
      '[dictionaries.channel]',
      `values = [${quoted(workspace.channels.map((c) => c.id))}]`,
      '[dictionaries.user]',
      `values = [${quoted(userIds)}]`,
      '[dictionaries.entity]',
      `values = [${quoted([ticketId, webhookId, creds.workspaceId, ...userIds, automationId])}]`,
      '[parameters]',
      '"path.id" = { dictionary = "entity", probability = 0.6 }',
      '"body.workspace_id" = { dictionary = "workspace", probability = 0.7 }',
      '"query.workspace_id" = { dictionary = "workspace", probability = 0.5 }',
      '"body.channel_id" = { dictionary = "channel", probability = 0.7 }',
      '"query.channel" = { dictionary = "channel", probability = 0.3 }',
      '"body.assignee_id" = { dictionary = "user", probability = 0.5 }',
      '"query.assignee" = { dictionary = "user", probability = 0.3 }',
      '',
    ].join('\n'),
  );
  return path;
}
