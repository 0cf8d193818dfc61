// OpenAPI paths of the segments resource (registered when routes.ts imports this file).
import { json, jsonBody } from '../../kit/openapi';
import { USER_OR_API_KEY, errorResponses, registry } from '../openapi';
import { CreateSegmentBody, DeviceCountResponse, ListSegmentsQuery, SegmentIdParams, SegmentList, SegmentResponse } from './schema';

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
