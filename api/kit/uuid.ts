// Ids that are UUIDs (the push API's rows): the one pattern, the path parameter that names
// a row by one, and the body or query field that must be one.
import { z } from '../zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EXAMPLE = '3f8c2a9e-5b1d-4c7e-9a2f-1e6d8b0c4a7f';

/** A UUID in any letter case. */
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

/**
 * A path parameter naming a row by its UUID. Any string passes: a malformed id names no
 * row, so the route answers its 404 (checked with isUuid before any query), never a 400.
 */
export const uuidParam = (description?: string) => z.string().openapi({ format: 'uuid', example: EXAMPLE, ...(description ? { description } : {}) });

/** A body or query field that must be a UUID: anything else is a 400. */
export const uuidField = () => z.string().uuid('must be a uuid').openapi({ format: 'uuid', example: EXAMPLE });
