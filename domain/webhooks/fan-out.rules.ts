// Which endpoints an event goes to, and how a claim's events split into batches. Pure: the
// claim (claim-events.ts) applies it to rows, unit tests to plain values.

export interface RoutedEvent {
  workspaceId: string;
  type: string;
  api: string;
  /** a platform event's environment (live or test data); null or absent for an API without environments */
  environment?: string | null;
}

export interface RoutableEndpoint {
  workspaceId: string;
  events: string[];
  api: string;
  environment?: string | null;
  /** in test mode real events are withheld: no delivery row at all (docs/webhooks.md, "Test mode") */
  testMode?: boolean;
}

/**
 * The endpoints `event` goes to: of its workspace, its API and its environment (live and
 * test data never meet; both null for the ticketing API), subscribed to its type (paused
 * ones too: their row is `skipped`), and not in test mode (unlike a pause, nothing is
 * logged, so there is nothing to redeliver after switching it off).
 */
export function subscribersOf<E extends RoutableEndpoint>(event: RoutedEvent, endpoints: readonly E[]): E[] {
  return endpoints.filter(
    (ep) =>
      ep.workspaceId === event.workspaceId &&
      ep.api === event.api &&
      (ep.environment ?? null) === (event.environment ?? null) &&
      ep.events.includes(event.type) &&
      !ep.testMode,
  );
}

/**
 * A claim's events by API, in the order each API first appears: one batch per API, so a
 * batch workflow's deliveries share one schedule (the one in its input). A claim whose
 * events share an API is one batch, as before APIs existed.
 */
export function byApi<T extends { api: string }>(events: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const e of events) {
    const group = groups.get(e.api);
    if (group) group.push(e);
    else groups.set(e.api, [e]);
  }
  return [...groups.values()];
}
