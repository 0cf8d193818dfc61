// The one clock that expiry checks on the request path read (setup tokens, trials):
// injectable, so a test can stand at the exact boundary (docs/architecture.md, "Shared
// machinery"). Durable timers do not read it: they are the workflows' own.
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
