import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/db';
import { isForeignKeyViolation } from '../../db/pg-errors';
import { insertSegment } from '../../db/repositories/push-segments';
import type { SegmentRow } from './types';
import type { SegmentFilter } from './segment-filter.rules';
import { appNotFound } from './errors';

export interface NewSegment {
  appId: string;
  name: string;
  description: string | null;
  /** checked and normalised already (domain/push/segment-filter.rules.ts) */
  filter: SegmentFilter;
}

/** A named device filter of the app; app_not_found when the app was deleted under it. */
export async function createSegment(executor: Executor, s: NewSegment): Promise<SegmentRow> {
  return insertSegment(executor, { id: randomUUID(), ...s }).catch((err) => {
    if (isForeignKeyViolation(err)) throw appNotFound(s.appId);
    throw err;
  });
}
