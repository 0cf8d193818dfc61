// Players' rules shared by the API's validation and the erasure command.

/** Erasure renames player_id to `erased_<random>`; callers may not use the prefix, so
 *  an upsert can never address an erased row. */
export const ERASED_PREFIX = 'erased_';

/** What an erased event payload becomes (events.data is NOT NULL). */
export const ERASED_EVENT_DATA = { erased: true };
