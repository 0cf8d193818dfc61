// A segment's filter (push API, docs/push.md "Segments"): what it may say, and the check that turns
// a client's JSON into a filter the compiler (db/repositories/push-segment-sql.ts) accepts. Pure: the API
// validates with it before storing, and the compiler re-checks whatever it is given, so
// a stored filter from any source compiles to SQL only after passing here.
//
//   group     = { operator: 'AND' | 'OR', conditions: (condition | group)[] }
//   condition = { field, operator, value }
//
// The limits keep one filter one cheap query: at most MAX_DEPTH nested groups (the top
// group is depth 1), MAX_CONDITIONS conditions in the whole tree, MAX_IN_VALUES values in
// one `in`, metadata keys of at most MAX_KEY_LENGTH characters. docs/push.md documents
// the semantics of every operator.
import { PLATFORMS } from '../../lib/push/platform';

export const GROUP_OPERATORS = ['AND', 'OR'] as const;
export const CONDITION_OPERATORS = ['equals', 'not_equals', 'in', 'greater_than', 'less_than', 'exists'] as const;
export const DEVICE_FIELDS = ['platform', 'userId', 'isActive'] as const;
export const METADATA_PREFIX = 'deviceMetadata.';

export const MAX_DEPTH = 5;
export const MAX_CONDITIONS = 50;
export const MAX_IN_VALUES = 100;
export const MAX_KEY_LENGTH = 100;
export const MAX_STRING_VALUE_LENGTH = 1000;

export type GroupOperator = (typeof GROUP_OPERATORS)[number];
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];
export type Scalar = string | number | boolean;

export interface FilterCondition {
  field: string;
  operator: ConditionOperator;
  value: Scalar | Scalar[];
}
export interface FilterGroup {
  operator: GroupOperator;
  conditions: Array<FilterCondition | FilterGroup>;
}
export type SegmentFilter = FilterGroup;

/** One problem in a filter: its JSON path (`filter.conditions.1.operator`) and what is wrong. */
export interface FilterIssue {
  path: string;
  message: string;
}

/** Thrown by parseSegmentFilter/compile: the API answers it as a 400 naming every path. */
export class SegmentFilterError extends Error {
  constructor(readonly issues: FilterIssue[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).slice(0, 5).join('; '));
  }
}

// Which operators each kind of field takes (anything else is a 400 naming both).
const OPERATORS_BY_KIND: Record<'platform' | 'userId' | 'isActive' | 'metadata', readonly ConditionOperator[]> = {
  platform: ['equals', 'not_equals', 'in'],
  userId: ['equals', 'not_equals', 'in', 'exists'],
  isActive: ['equals', 'not_equals'],
  metadata: CONDITION_OPERATORS,
};

export type FieldKind = keyof typeof OPERATORS_BY_KIND;

/** The kind of a field name, or null for an unknown field. */
export function fieldKind(field: string): FieldKind | null {
  if ((DEVICE_FIELDS as readonly string[]).includes(field)) return field as FieldKind;
  if (field.startsWith(METADATA_PREFIX)) return 'metadata';
  return null;
}

/** The metadata key of `deviceMetadata.<key>`: everything after the first dot, literally. */
export const metadataKey = (field: string) => field.slice(METADATA_PREFIX.length);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v)?.slice(0, 60) ?? String(v);
// Postgres text and jsonb cannot hold U+0000; lone surrogates are not valid UTF-8.
const BAD_TEXT = /[\u0000]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Checks `raw` and returns the filter in its normal form (platform values spelled
 * `Android` / `iOS`), or throws SegmentFilterError with every issue found.
 */
export function parseSegmentFilter(raw: unknown, path = 'filter'): SegmentFilter {
  const issues: FilterIssue[] = [];
  const counter = { conditions: 0 };
  const filter = checkGroup(raw, path, 1, issues, counter);
  if (counter.conditions > MAX_CONDITIONS) {
    issues.push({ path, message: `has ${counter.conditions} conditions; at most ${MAX_CONDITIONS} are allowed` });
  }
  if (issues.length || !filter) throw new SegmentFilterError(issues.length ? issues : [{ path, message: 'is invalid' }]);
  return filter;
}

function checkGroup(
  raw: unknown,
  path: string,
  depth: number,
  issues: FilterIssue[],
  counter: { conditions: number },
): FilterGroup | null {
  if (!isObject(raw)) {
    issues.push({ path, message: 'must be a group object {operator, conditions}' });
    return null;
  }
  if (depth > MAX_DEPTH) {
    issues.push({ path, message: `groups nest at most ${MAX_DEPTH} levels deep` });
    return null;
  }
  for (const key of Object.keys(raw)) {
    if (key !== 'operator' && key !== 'conditions') issues.push({ path: `${path}.${key}`, message: `unknown property '${key}' of a group` });
  }
  const op = raw.operator;
  if (typeof op !== 'string' || !(GROUP_OPERATORS as readonly string[]).includes(op)) {
    issues.push({ path: `${path}.operator`, message: `unknown group operator ${show(op)} (allowed: ${GROUP_OPERATORS.join(', ')})` });
  }
  if (!Array.isArray(raw.conditions)) {
    issues.push({ path: `${path}.conditions`, message: 'must be an array of conditions and groups' });
    return null;
  }
  const conditions: FilterGroup['conditions'] = [];
  raw.conditions.forEach((item, i) => {
    const itemPath = `${path}.conditions.${i}`;
    if (isObject(item) && 'conditions' in item && !('field' in item)) {
      const group = checkGroup(item, itemPath, depth + 1, issues, counter);
      if (group) conditions.push(group);
    } else {
      counter.conditions += 1;
      const condition = checkCondition(item, itemPath, issues);
      if (condition) conditions.push(condition);
    }
  });
  return { operator: op as GroupOperator, conditions };
}

function checkCondition(raw: unknown, path: string, issues: FilterIssue[]): FilterCondition | null {
  if (!isObject(raw)) {
    issues.push({ path, message: 'must be a condition {field, operator, value} or a group {operator, conditions}' });
    return null;
  }
  const before = issues.length;
  for (const key of Object.keys(raw)) {
    if (key !== 'field' && key !== 'operator' && key !== 'value') {
      issues.push({ path: `${path}.${key}`, message: `unknown property '${key}' of a condition` });
    }
  }
  const { field, operator } = raw;
  const kind = typeof field === 'string' ? fieldKind(field) : null;
  if (typeof field !== 'string' || !kind) {
    issues.push({
      path: `${path}.field`,
      message: `unknown field ${show(field)} (allowed: ${DEVICE_FIELDS.join(', ')}, ${METADATA_PREFIX}<key>)`,
    });
  } else if (kind === 'metadata') {
    const key = metadataKey(field);
    if (key.length === 0) issues.push({ path: `${path}.field`, message: `names no key after '${METADATA_PREFIX}'` });
    else if (key.length > MAX_KEY_LENGTH) issues.push({ path: `${path}.field`, message: `metadata key longer than ${MAX_KEY_LENGTH} characters` });
    else if (BAD_TEXT.test(key)) issues.push({ path: `${path}.field`, message: 'metadata key holds a NUL or an unpaired surrogate' });
  }
  if (typeof operator !== 'string' || !(CONDITION_OPERATORS as readonly string[]).includes(operator)) {
    issues.push({
      path: `${path}.operator`,
      message: `unknown operator ${show(operator)} (allowed: ${CONDITION_OPERATORS.join(', ')})`,
    });
  } else if (kind && !OPERATORS_BY_KIND[kind].includes(operator as ConditionOperator)) {
    issues.push({
      path: `${path}.operator`,
      message: `operator '${operator}' does not apply to ${show(field)} (allowed: ${OPERATORS_BY_KIND[kind].join(', ')})`,
    });
  }
  if (issues.length > before) return null;
  const value = checkValue(kind!, operator as ConditionOperator, raw.value, `${path}.value`, issues);
  if (issues.length > before) return null;
  return { field: field as string, operator: operator as ConditionOperator, value: value! };
}

function checkValue(
  kind: FieldKind,
  operator: ConditionOperator,
  value: unknown,
  path: string,
  issues: FilterIssue[],
): Scalar | Scalar[] | null {
  const fail = (message: string) => {
    issues.push({ path, message });
    return null;
  };
  if (operator === 'exists') return typeof value === 'boolean' ? value : fail('must be true or false for exists');
  if (operator === 'greater_than' || operator === 'less_than') {
    return typeof value === 'number' && Number.isFinite(value) ? value : fail(`must be a finite number for ${operator}`);
  }
  if (operator === 'in') {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IN_VALUES) {
      return fail(`must be an array of 1 to ${MAX_IN_VALUES} values for in`);
    }
    const out: Scalar[] = [];
    value.forEach((v, i) => {
      const one = checkScalar(kind, v, `${path}.${i}`, issues);
      if (one !== null) out.push(one);
    });
    return out.length === value.length ? out : null;
  }
  return checkScalar(kind, value, path, issues);
}

/** One value for equals / not_equals / an element of in, by the field's type. */
function checkScalar(kind: FieldKind, value: unknown, path: string, issues: FilterIssue[]): Scalar | null {
  const fail = (message: string) => {
    issues.push({ path, message });
    return null;
  };
  if (typeof value === 'string' && (value.length > MAX_STRING_VALUE_LENGTH || BAD_TEXT.test(value))) {
    return fail(`must be at most ${MAX_STRING_VALUE_LENGTH} characters without NUL or unpaired surrogates`);
  }
  switch (kind) {
    case 'platform': {
      const p = typeof value === 'string' ? PLATFORMS.find((x) => x.toLowerCase() === value.toLowerCase()) : undefined;
      return p ?? fail(`must be one of ${PLATFORMS.join(', ')} (any letter case), got ${show(value)}`);
    }
    case 'userId':
      return typeof value === 'string' ? value : fail('must be a string (use exists false for devices without a user)');
    case 'isActive':
      return typeof value === 'boolean' ? value : fail('must be true or false');
    case 'metadata':
      if (typeof value === 'string' || typeof value === 'boolean') return value;
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      return fail('must be a string, a finite number or a boolean (use exists for absent keys)');
  }
}
