// Segments (the push spec): a named device filter of an app. The filter grammar and its
// check live in domain/push/segment-filter.rules.ts (shared with the workers that send to a
// segment); filter-schema.ts makes it a request field. The OpenAPI paths are at the end.
import { z } from '../../zod';
import { registry, USER_OR_API_KEY, errorResponses } from '../openapi';
import { text, uuidField as uuid, uuidParam } from '../../kit/fields';
import { SegmentFilterField, SegmentFilterResponse } from './filter-schema';
import { json, jsonBody } from '../../kit/openapi';

export const CreateSegmentBody = z
  .object({
    appId: uuid(),
    name: text(200, { notBlank: true }).openapi({ example: 'US premium players' }),
    description: text(2000)
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

// The OpenAPI paths of the resource, from the schemas above.

registry.registerPath({
  method: 'post',
  path: '/api/v1/segments',
  summary: 'Create a segment (a named device filter of an app)',
  description:
    'An unknown field or operator, a value of the wrong type, or a filter over the depth or size limits is a 400 ' +
    'whose errors name the path (e.g. filter.conditions.1.operator).',
  tags: ['Segments'],
  security: USER_OR_API_KEY,
  request: jsonBody(CreateSegmentBody),
  responses: { 201: json(SegmentResponse, 'the segment'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/segments',
  summary: "An app's segments (a plain array, oldest first)",
  tags: ['Segments'],
  security: USER_OR_API_KEY,
  request: { query: ListSegmentsQuery },
  responses: { 200: json(SegmentList, 'the segments'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/segments/{segmentId}/device-count',
  summary: 'How many active devices of the app the segment matches now',
  tags: ['Segments'],
  security: USER_OR_API_KEY,
  request: { params: SegmentIdParams },
  responses: { 200: json(DeviceCountResponse, 'the count'), ...errorResponses(404) },
});
