// Pure rules of event triggers (docs/push.md, "Event triggers"): which conditions are
// well formed, whether a fired event's properties meet them, and the text a firing
// sends. Values of properties are data only: rendering inserts them as text in one pass
// (a value that looks like a placeholder or like `${...}` stays exactly that text) and
// nothing is ever evaluated.
import { TRIGGER_OPERATORS, type TriggerCondition, type TriggerOperator } from './types';

export { TRIGGER_OPERATORS };

/** Conditions per trigger: all must hold (AND). */
export const MAX_TRIGGER_CONDITIONS = 20;
export const MAX_DELAY_MINUTES = 10_080;
export const MAX_PROPERTY_NAME = 100;
/** What a rendered firing may carry: the direct send's limits, and together they fit one push. */
export const MAX_TITLE = 256;
export const MAX_BODY = 2048;
export const MAX_PUSH_TEXT_BYTES = 3072;

export const PROPERTY_PREFIX = 'properties.';

/** The property a condition's field names (`properties.<name>`), or null when the field is not one. */
export function propertyOf(field: string): string | null {
  if (!field.startsWith(PROPERTY_PREFIX)) return null;
  const name = field.slice(PROPERTY_PREFIX.length);
  return name.length > 0 && name.length <= MAX_PROPERTY_NAME ? name : null;
}

/**
 * Why a condition cannot be stored, or null when it can. Per operator, the value:
 * equals/not_equals a string, number, boolean or null; greater_than/less_than a finite
 * number; contains a string, number or boolean; exists true or false (absent: true).
 */
export function conditionProblem(c: { field?: unknown; operator?: unknown; value?: unknown }): { path: 'field' | 'operator' | 'value'; message: string } | null {
  if (typeof c.field !== 'string' || !propertyOf(c.field)) {
    return { path: 'field', message: `must be ${PROPERTY_PREFIX}<name> (a name of 1 to ${MAX_PROPERTY_NAME} characters)` };
  }
  if (typeof c.operator !== 'string' || !(TRIGGER_OPERATORS as readonly string[]).includes(c.operator)) {
    return { path: 'operator', message: `must be one of ${TRIGGER_OPERATORS.join(', ')}` };
  }
  const v = c.value;
  switch (c.operator as TriggerOperator) {
    case 'equals':
    case 'not_equals':
      return v === null || ['string', 'number', 'boolean'].includes(typeof v) ? null : { path: 'value', message: 'must be a string, number, boolean or null' };
    case 'greater_than':
    case 'less_than':
      return typeof v === 'number' && Number.isFinite(v) ? null : { path: 'value', message: 'must be a number' };
    case 'contains':
      return ['string', 'number', 'boolean'].includes(typeof v) ? null : { path: 'value', message: 'must be a string, number or boolean' };
    case 'exists':
      return v === undefined || typeof v === 'boolean' ? null : { path: 'value', message: 'must be true or false' };
  }
}

const own = (props: Record<string, unknown>, name: string) => Object.prototype.hasOwnProperty.call(props, name);

/** JSON equality of scalars: the same type and value ("5" is not 5). */
const same = (a: unknown, b: unknown) => a === b;

/**
 * Whether one (well-formed) condition holds for the fired properties:
 * - equals: the property is present with exactly that value (same JSON type);
 *   not_equals is its negation (a missing property is not equal to anything);
 * - greater_than / less_than: the property is a number and compares so (anything else: false);
 * - contains: a string property contains the (string) value, case-sensitive, or an array
 *   property has an element equal to the value;
 * - exists true: the property is present and not null; exists false: absent or null.
 */
export function conditionHolds(c: TriggerCondition, props: Record<string, unknown>): boolean {
  const name = propertyOf(c.field);
  if (name === null) return false;
  const present = own(props, name);
  const p = present ? props[name] : undefined;
  switch (c.operator) {
    case 'equals':
      return present && same(p, c.value);
    case 'not_equals':
      return !(present && same(p, c.value));
    case 'greater_than':
      return typeof p === 'number' && typeof c.value === 'number' && p > c.value;
    case 'less_than':
      return typeof p === 'number' && typeof c.value === 'number' && p < c.value;
    case 'contains':
      if (typeof p === 'string') return typeof c.value === 'string' && p.includes(c.value);
      if (Array.isArray(p)) return p.some((e) => same(e, c.value));
      return false;
    case 'exists':
      return (c.value ?? true) === (present && p !== null && p !== undefined);
  }
}

/** Every condition holds (an empty list always does). */
export function conditionsHold(conditions: TriggerCondition[], props: Record<string, unknown>): boolean {
  return conditions.every((c) => conditionHolds(c, props));
}

const PLACEHOLDER = /\{\{\s*properties\.([^{}\s]+?)\s*\}\}/g;

/** A property value as the text it renders to: strings as they are, null and absent as '', anything else as JSON. */
export function textOf(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v) ?? '';
}

/**
 * The template with each `{{properties.<name>}}` replaced by the property's text
 * (missing: empty). One pass over the template: inserted values are never scanned again.
 */
export function renderTemplate(template: string, props: Record<string, unknown>): string {
  // NUL is the one character a push (and Postgres text) cannot carry: dropped
  return template.replace(PLACEHOLDER, (_, name: string) => (own(props, name) ? textOf(props[name]).replace(/\u0000/g, '') : ''));
}

/** Cut to at most `chars` characters and `bytes` UTF-8 bytes, never inside a character. */
export function cut(text: string, chars: number, bytes: number): string {
  let out = Array.from(text).slice(0, chars);
  while (Buffer.byteLength(out.join('')) > bytes) out = out.slice(0, Math.max(0, out.length - Math.max(1, Math.ceil(out.length / 16))));
  return out.join('');
}

/**
 * A firing's title and body: the trigger's templates rendered with the fired
 * properties, cut to a push's limits (title 256, body 2,048 characters; the two within
 * MAX_PUSH_TEXT_BYTES, the body giving way first). A blank title or body stays blank:
 * the trigger's author chose the placeholders.
 */
export function renderFiring(t: { title: string; body: string }, props: Record<string, unknown>): { title: string; body: string } {
  const title = cut(renderTemplate(t.title, props), MAX_TITLE, MAX_PUSH_TEXT_BYTES / 4);
  const body = cut(renderTemplate(t.body, props), MAX_BODY, MAX_PUSH_TEXT_BYTES - Buffer.byteLength(title));
  return { title, body };
}
