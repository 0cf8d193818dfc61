// push_segments: named device filters of an app. The filter is stored in its checked,
// normal form (domain/push/segment-filter.rules.ts) and compiled when counted or sent to.
import { PushSegment } from '../entities';
import { managerOf, type Executor } from '../db';
import type { SegmentFilter } from '../../domain/push/segment-filter.rules';
import type { SegmentRow } from '../../domain/push/types';


export interface NewSegment {
  id: string;
  appId: string;
  name: string;
  description: string | null;
  filter: SegmentFilter;
}

export async function insertSegment(ex: Executor, s: NewSegment): Promise<SegmentRow> {
  const m = managerOf(ex);
  await m.insert(PushSegment, { ...s, filter: s.filter as object });
  return (await m.findOneOrFail(PushSegment, { where: { id: s.id } })) as SegmentRow;
}

/** An app's segments, oldest first (index push_segments_app). */
export async function listSegments(ex: Executor, appId: string): Promise<SegmentRow[]> {
  return (await managerOf(ex).find(PushSegment, { where: { appId }, order: { createdAt: 'ASC', id: 'ASC' } })) as SegmentRow[];
}

export async function findSegment(ex: Executor, id: string): Promise<SegmentRow | null> {
  return (await managerOf(ex).findOne(PushSegment, { where: { id } })) as SegmentRow | null;
}
