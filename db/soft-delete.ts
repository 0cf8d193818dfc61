// Rows that are gone for the API but stay in their table: webhook endpoints (deleted_at:
// their delivery log still names them) and erased players (erased_at: their tickets still
// point at them). One way to say "a live row" in SQL and in TypeORM, spelt exactly as the
// partial indexes are (`... WHERE deleted_at IS NULL`), so the planner keeps using them.
import { IsNull } from 'typeorm';

/** The column that marks a row as deleted: null while the row is live. */
export type DeletedMarker = 'deleted_at' | 'erased_at';

/** SQL: the row behind `alias` is live, e.g. `p.erased_at IS NULL`. */
export const liveRow = (alias: string, marker: DeletedMarker = 'deleted_at'): string => `${alias}.${marker} IS NULL`;

/** TypeORM `where` part of a live webhook endpoint: spread it (`{ id, ...notDeleted }`). */
export const notDeleted = { deletedAt: IsNull() };

/** TypeORM `where` part of a live (not erased) player. */
export const notErased = { erasedAt: IsNull() };
