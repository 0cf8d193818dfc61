// Compiles a segment filter (domain/push/segment-filter.rules.ts) to ONE parameterised SQL boolean expression over
// push_devices. Every value and every metadata key travels as a bind parameter; the only
// text spliced into the SQL is this file's own constants and the caller's table alias
// (checked against a strict pattern). Metadata equality, `in` and `exists` compile to
// jsonb containment (`@>`) and key existence (`?`), the operators the GIN index
// push_devices_metadata serves.
import { metadataKey, parseSegmentFilter, type FilterCondition, type FilterGroup, type Scalar } from '../../domain/push/segment-filter.rules';

export interface CompiledFilter {
  /** a boolean SQL expression; placeholders $<offset+1>… */
  sql: string;
  params: unknown[];
}

export interface CompileOptions {
  /** the alias push_devices has in the caller's query (default `d`) */
  alias?: string;
  /** placeholders start at $<paramOffset + 1> (default 0), to follow the caller's own */
  paramOffset?: number;
}

const ALIAS = /^[a-z_][a-z0-9_]{0,62}$/;
// A metadata string that reads as a decimal number takes part in greater_than/less_than.
const NUMERIC_TEXT = `'^-?[0-9]{1,30}(\\.[0-9]{1,30})?$'`;

/** `filter` is checked again here (parseSegmentFilter), so nothing unchecked reaches SQL. */
export function compileSegmentFilter(filter: unknown, opts: CompileOptions = {}): CompiledFilter {
  const alias = opts.alias ?? 'd';
  if (!ALIAS.test(alias)) throw new Error(`not a table alias: ${alias}`);
  const params: unknown[] = [];
  const offset = opts.paramOffset ?? 0;
  const bind = (value: unknown) => {
    params.push(value);
    return `$${offset + params.length}`;
  };
  const sql = group(parseSegmentFilter(filter), alias, bind);
  return { sql, params };
}

type Bind = (value: unknown) => string;

function group(g: FilterGroup, a: string, bind: Bind): string {
  if (g.conditions.length === 0) return g.operator === 'AND' ? 'TRUE' : 'FALSE';
  const parts = g.conditions.map((c) => ('conditions' in c ? group(c, a, bind) : condition(c, a, bind)));
  return `(${parts.join(g.operator === 'AND' ? ' AND ' : ' OR ')})`;
}

function condition(c: FilterCondition, a: string, bind: Bind): string {
  switch (c.field) {
    case 'platform':
      return column(`${a}.platform`, 'text', c, bind);
    case 'userId':
      return column(`${a}.user_id`, 'text', c, bind);
    case 'isActive':
      return column(`${a}.is_active`, 'boolean', c, bind);
    default:
      return metadata(`${a}.device_metadata`, metadataKey(c.field), c, bind);
  }
}

/** A device column. NULL userId: not_equals matches it, equals/in never do. */
function column(col: string, type: 'text' | 'boolean', c: FilterCondition, bind: Bind): string {
  switch (c.operator) {
    case 'equals':
      return `${col} = ${bind(c.value)}::${type}`;
    case 'not_equals':
      return `${col} IS DISTINCT FROM ${bind(c.value)}::${type}`;
    case 'in':
      return `${col} = ANY(${bind(c.value)}::${type}[])`;
    case 'exists':
      return c.value ? `${col} IS NOT NULL` : `${col} IS NULL`;
    default:
      // parseSegmentFilter refuses the comparison operators on device columns
      throw new Error(`operator ${c.operator} on ${c.field}`);
  }
}

/** One top-level key of device_metadata. JSON values compare by type: "5" is not 5. */
function metadata(col: string, key: string, c: FilterCondition, bind: Bind): string {
  const doc = (v: Scalar) => JSON.stringify({ [key]: v });
  switch (c.operator) {
    case 'equals':
      return `${col} @> ${bind(doc(c.value as Scalar))}::jsonb`;
    case 'not_equals':
      // a device without the key is "not equal" too
      return `NOT (${col} @> ${bind(doc(c.value as Scalar))}::jsonb)`;
    case 'in':
      return `${col} @> ANY(${bind((c.value as Scalar[]).map(doc))}::jsonb[])`;
    case 'exists': {
      // OPERATOR(pg_catalog.?) is jsonb's `?` spelled so that no driver reads it as a placeholder
      const has = `${col} OPERATOR(pg_catalog.?) ${bind(key)}::text`;
      return c.value ? has : `NOT (${has})`;
    }
    case 'greater_than':
    case 'less_than': {
      const k = bind(key);
      const text = `(${col} ->> ${k}::text)`;
      // CASE, not AND: Postgres does not promise AND's evaluation order, and a cast of a
      // non-numeric string would fail the whole query.
      const number = `CASE jsonb_typeof(${col} -> ${k}::text)
        WHEN 'number' THEN ${text}::numeric
        WHEN 'string' THEN CASE WHEN ${text} ~ ${NUMERIC_TEXT} THEN ${text}::numeric END END`;
      const op = c.operator === 'greater_than' ? '>' : '<';
      return `COALESCE((${number}) ${op} ${bind(c.value)}::numeric, FALSE)`;
    }
  }
}

export interface SegmentDeviceQuery {
  /** `<alias>.app_id = $1 AND <alias>.is_active AND (<filter>)` */
  whereSql: string;
  /** [appId, ...the filter's values] */
  params: unknown[];
}

/**
 * The WHERE clause of "active devices of app `appId` matching `filter`", for
 * `SELECT … FROM push_devices <alias> WHERE ${whereSql}` (segment counts, campaign sends).
 * Placeholders start at $<paramOffset + 1>; `params` are in placeholder order.
 */
export function segmentDeviceQuery(filter: unknown, appId: string, opts: CompileOptions = {}): SegmentDeviceQuery {
  const alias = opts.alias ?? 'd';
  const offset = opts.paramOffset ?? 0;
  const compiled = compileSegmentFilter(filter, { alias, paramOffset: offset + 1 });
  return {
    whereSql: `${alias}.app_id = $${offset + 1}::uuid AND ${alias}.is_active AND ${compiled.sql}`,
    params: [appId, ...compiled.params],
  };
}
