// Delivery and open rates as the push API reports them (app overview now, campaign
// analytics next): a share of what was sent, from recorded facts.

/** `part` as a share of `sent`, 0 when nothing was sent, never above 1. */
export const rateOf = (part: number, sent: number): number => (sent > 0 ? Math.min(1, part / sent) : 0);
