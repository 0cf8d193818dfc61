import type { SegmentRow } from '../../../domain/push/types';
import type { SegmentResponse } from './schema';
import { iso } from '../../kit/dates';

/** The Segment object: the create request's fields, its id and timestamps. */
export function presentSegment(s: SegmentRow): SegmentResponse {
  return {
    id: s.id,
    appId: s.appId,
    name: s.name,
    description: s.description,
    filter: s.filter,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  };
}
