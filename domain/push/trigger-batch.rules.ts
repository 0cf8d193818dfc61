// How the firing dispatcher groups claimed firings into batches (docs/push.md, "Event
// triggers"): every batch is one workflow and, when due, one push call, so a batch holds
// firings due together. Firings due at once (delay 0) form one group; the others are
// grouped by the second they are due in, and their batch waits for the latest of them:
// a firing is never sent before its due time and at most a second after it.

export interface BatchCandidate {
  id: string;
  sendAtMs: number;
  atOnce: boolean;
}

/** The groups of fresh firings, each to become one batch (the caller names them), in due order. */
export function groupFirings<T extends BatchCandidate>(firings: T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const f of firings) {
    const key = f.atOnce ? 'now' : String(Math.floor(f.sendAtMs / 1000));
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  return [...groups.values()];
}
