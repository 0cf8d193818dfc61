// Segments (Document 3): a named device filter of an app. The filter grammar and its
// check live in lib/push/segments/filter.ts (shared with the workers that send to a
// segment); filter-schema.ts makes it a request field.
import { z } from '../../zod';
import { registry } from '../openapi';
import { uuidField as uuid, uuidParam } from '../../kit/uuid';
import { SegmentFilterField, SegmentFilterResponse } from './filter-schema';

const NO_NUL = (s: string) => !s.includes('\u0000');

export const CreateSegmentBody = z
  .object({
    appId: uuid(),
    name: z
      .string()
      .max(200, 'must be at most 200 characters')
      .refine((s) => s.trim().length > 0, 'must not be blank')
      .refine(NO_NUL, 'must not contain NUL characters')
      .openapi({ example: 'US premium players' }),
    description: z
      .string()
      .max(2000, 'must be at most 2000 characters')
      .refine(NO_NUL, 'must not contain NUL characters')
      .nullable()
      .optional()
      .openapi({ example: 'Premium subscribers in the US' }),
    filter: SegmentFilterField,
  })
  .strict()
  .openapi('CreateSegmentRequest');

export const ListSegmentsQuery = z.object({ appId: uuid() });

export const SegmentIdParams = z.object({ segmentId: uuidParam() });

export const SegmentResponse = registry.register(
  'Segment',
  z.object({
    id: z.string().openapi({ format: 'uuid' }),
    appId: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    description: z.string().nullable(),
    filter: SegmentFilterResponse,
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  }),
);
export type SegmentResponse = z.infer<typeof SegmentResponse>;

export const SegmentList = registry.register('SegmentList', z.array(SegmentResponse));

export const DeviceCountResponse = registry.register(
  'SegmentDeviceCount',
  z.object({ count: z.number().int().openapi({ description: 'active devices of the app that match the filter' }) }),
);
