// The segment filter as a request field: zod runs the filter check of
// domain/push/segment-filter.rules.ts (so every issue is a 400 under its own path, e.g.
// `filter.conditions.1.operator`), and the OpenAPI document shows the grammar, nested
// MAX_DEPTH levels deep (a recursive $ref would be shorter, but the fuzzer and several
// client generators do not follow recursive schemas).
import { z } from '../../zod';
import {
  CONDITION_OPERATORS,
  DEVICE_FIELDS,
  GROUP_OPERATORS,
  MAX_CONDITIONS,
  MAX_DEPTH,
  MAX_IN_VALUES,
  METADATA_PREFIX,
  parseSegmentFilter,
  SegmentFilterError,
  type SegmentFilter,
} from '../../../domain/push/segment-filter.rules';

const CONDITION_DOC = {
  type: 'object',
  required: ['field', 'operator'],
  additionalProperties: false,
  properties: {
    field: {
      type: 'string',
      description: `${DEVICE_FIELDS.join(', ')}, or ${METADATA_PREFIX}<key> (one top-level metadata key)`,
      example: 'deviceMetadata.country',
    },
    operator: { type: 'string', enum: [...CONDITION_OPERATORS] },
    value: {
      description:
        `equals/not_equals: a string, number or boolean; in: an array of 1 to ${MAX_IN_VALUES} of them; ` +
        'greater_than/less_than: a number; exists: true or false',
      example: 'US',
    },
  },
};

function groupDoc(depth: number): Record<string, unknown> {
  return {
    type: 'object',
    required: ['operator', 'conditions'],
    additionalProperties: false,
    properties: {
      operator: { type: 'string', enum: [...GROUP_OPERATORS] },
      conditions: {
        type: 'array',
        maxItems: MAX_CONDITIONS,
        items: depth < MAX_DEPTH ? { anyOf: [CONDITION_DOC, groupDoc(depth + 1)] } : CONDITION_DOC,
      },
    },
  };
}

const FILTER_DOC = {
  ...groupDoc(1),
  description:
    `Groups (AND/OR) of conditions and groups, at most ${MAX_DEPTH} levels deep and ${MAX_CONDITIONS} ` +
    'conditions in all. docs/push.md describes each operator.',
  example: { operator: 'AND', conditions: [{ field: 'deviceMetadata.country', operator: 'equals', value: 'US' }] },
};

/** A request's `filter`: checked, and answered in its normal form (platform spelled Android/iOS). */
export const SegmentFilterField = z
  .record(z.string(), z.unknown())
  .transform((raw, ctx): SegmentFilter => {
    try {
      return parseSegmentFilter(raw, 'filter');
    } catch (err) {
      if (!(err instanceof SegmentFilterError)) throw err;
      for (const issue of err.issues) {
        // the issue path starts with 'filter', which zod adds itself for this field
        const path = issue.path.split('.').slice(1).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
        ctx.addIssue({ code: z.ZodIssueCode.custom, path, message: issue.message });
      }
      return z.NEVER;
    }
  })
  .openapi(FILTER_DOC as object);

/** The same grammar for responses (a stored filter is already in normal form). */
export const SegmentFilterResponse = z.custom<SegmentFilter>(() => true).openapi(FILTER_DOC as object);
