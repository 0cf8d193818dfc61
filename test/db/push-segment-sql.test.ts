// The segment filter compiler without a database: what each operator compiles to, that
// values and metadata keys only ever travel as parameters, and the 400 issues (by path)
// for unknown operators and fields, wrong value types, depth and size limits.
import assert from 'node:assert/strict';
import {
  MAX_CONDITIONS,
  MAX_DEPTH,
  MAX_IN_VALUES,
  parseSegmentFilter,
  SegmentFilterError,
} from '../../domain/push/segment-filter.rules';
import { compileSegmentFilter, segmentDeviceQuery } from '../../db/repositories/push-segment-sql';

const and = (...conditions: unknown[]) => ({ operator: 'AND', conditions });
const or = (...conditions: unknown[]) => ({ operator: 'OR', conditions });
const cond = (field: string, operator: string, value?: unknown) => ({ field, operator, value });

function issuesOf(raw: unknown): Record<string, string> {
  try {
    parseSegmentFilter(raw);
  } catch (err) {
    assert.ok(err instanceof SegmentFilterError);
    return Object.fromEntries(err.issues.map((i) => [i.path, i.message]));
  }
  assert.fail('the filter was accepted');
}

describe('segment filter: every operator compiles to a parameterised expression', () => {
  const cases: Array<[unknown, string, unknown[]]> = [
    [cond('platform', 'equals', 'ANDROID'), 'd.platform = $1::text', ['Android']],
    [cond('platform', 'not_equals', 'ios'), 'd.platform IS DISTINCT FROM $1::text', ['iOS']],
    [cond('platform', 'in', ['ios', 'Android']), 'd.platform = ANY($1::text[])', [['iOS', 'Android']]],
    [cond('userId', 'equals', 'u1'), 'd.user_id = $1::text', ['u1']],
    [cond('userId', 'not_equals', 'u1'), 'd.user_id IS DISTINCT FROM $1::text', ['u1']],
    [cond('userId', 'in', ['a', 'b']), 'd.user_id = ANY($1::text[])', [['a', 'b']]],
    [cond('userId', 'exists', true), 'd.user_id IS NOT NULL', []],
    [cond('userId', 'exists', false), 'd.user_id IS NULL', []],
    [cond('isActive', 'equals', false), 'd.is_active = $1::boolean', [false]],
    [cond('isActive', 'not_equals', true), 'd.is_active IS DISTINCT FROM $1::boolean', [true]],
    [cond('deviceMetadata.country', 'equals', 'US'), 'd.device_metadata @> $1::jsonb', ['{"country":"US"}']],
    [cond('deviceMetadata.level', 'equals', 3), 'd.device_metadata @> $1::jsonb', ['{"level":3}']],
    [cond('deviceMetadata.vip', 'not_equals', true), 'NOT (d.device_metadata @> $1::jsonb)', ['{"vip":true}']],
    [
      cond('deviceMetadata.country', 'in', ['US', 'DE']),
      'd.device_metadata @> ANY($1::jsonb[])',
      [['{"country":"US"}', '{"country":"DE"}']],
    ],
    [cond('deviceMetadata.country', 'exists', true), 'd.device_metadata OPERATOR(pg_catalog.?) $1::text', ['country']],
    [cond('deviceMetadata.country', 'exists', false), 'NOT (d.device_metadata OPERATOR(pg_catalog.?) $1::text)', ['country']],
  ];
  test.each(cases)('%j', (c, sql, params) => {
    const out = compileSegmentFilter(and(c));
    assert.equal(out.sql, `(${sql})`);
    assert.deepEqual(out.params, params);
  });

  test('greater_than and less_than compare numbers (and numeric strings) only, as numeric', () => {
    for (const [op, sign] of [['greater_than', '>'], ['less_than', '<']] as const) {
      const out = compileSegmentFilter(and(cond('deviceMetadata.level', op, 10.5)));
      assert.deepEqual(out.params, ['level', 10.5]);
      assert.match(out.sql, /jsonb_typeof\(d\.device_metadata -> \$1::text\)/);
      assert.ok(out.sql.includes(`${sign} $2::numeric, FALSE)`), out.sql);
    }
  });

  test('nesting: groups in groups, AND/OR joined, placeholders numbered in order', () => {
    const out = compileSegmentFilter(
      and(cond('platform', 'equals', 'iOS'), or(cond('userId', 'equals', 'a'), and(cond('deviceMetadata.x', 'equals', 1)))),
    );
    assert.equal(
      out.sql,
      '(d.platform = $1::text AND (d.user_id = $2::text OR (d.device_metadata @> $3::jsonb)))',
    );
    assert.deepEqual(out.params, ['iOS', 'a', '{"x":1}']);
  });

  test('an empty AND matches every device, an empty OR none', () => {
    assert.equal(compileSegmentFilter(and()).sql, 'TRUE');
    assert.equal(compileSegmentFilter(or()).sql, 'FALSE');
  });

  test('segmentDeviceQuery: the app and active devices first, the filter after, with an alias and an offset', () => {
    const q = segmentDeviceQuery(and(cond('userId', 'equals', 'u')), 'app-1', { alias: 'dev', paramOffset: 2 });
    assert.equal(q.whereSql, 'dev.app_id = $3::uuid AND dev.is_active AND (dev.user_id = $4::text)');
    assert.deepEqual(q.params, ['app-1', 'u']);
    assert.throws(() => segmentDeviceQuery(and(), 'a', { alias: 'd; DROP TABLE x' }), /not a table alias/);
  });
});

describe('segment filter: hostile keys and values never reach the SQL text', () => {
  const hostile = [
    "'; DROP TABLE push_devices; --",
    "x' OR '1'='1",
    'a"b',
    "key->>'x'",
    '->>',
    '$1',
    '?',
    '\\',
    'ключ 🔑 キー',
    'a\u202eb',
  ];
  test.each(hostile)('%j as a metadata key and as a value', (text) => {
    const raw = and(
      cond(`deviceMetadata.${text}`, 'equals', text),
      cond(`deviceMetadata.${text}`, 'in', [text]),
      cond(`deviceMetadata.${text}`, 'exists', true),
      cond(`deviceMetadata.${text}`, 'greater_than', 1),
      cond('userId', 'equals', text),
      cond('userId', 'in', [text, 'ok']),
    );
    const out = compileSegmentFilter(raw);
    // the SQL is the same as for a harmless key and value: only parameters differ
    const plain = compileSegmentFilter(
      JSON.parse(JSON.stringify(raw).split(JSON.stringify(text).slice(1, -1)).join('k')),
    );
    assert.equal(out.sql, plain.sql);
    assert.ok(out.params.includes(text) || out.params.some((p) => JSON.stringify(p).includes(JSON.stringify(text).slice(1, -1))));
  });

  test('NUL and unpaired surrogates in keys or values are refused (Postgres text cannot hold them)', () => {
    const issues = issuesOf(
      and(
        cond('deviceMetadata.a\u0000b', 'equals', 'x'),
        cond('userId', 'equals', 'nul\u0000'),
        cond('deviceMetadata.k', 'in', ['ok', '\ud800']),
      ),
    );
    assert.match(issues['filter.conditions.0.field'], /NUL/);
    assert.match(issues['filter.conditions.1.value'], /NUL/);
    assert.match(issues['filter.conditions.2.value.1'], /NUL or unpaired/);
  });
});

describe('segment filter: 400 issues name what is wrong, by path', () => {
  test('an unknown condition operator is named', () => {
    const issues = issuesOf(and(cond('platform', 'equals', 'iOS'), cond('userId', 'like', '%a')));
    assert.match(issues['filter.conditions.1.operator'], /unknown operator "like"/);
  });

  test('an unknown field is named', () => {
    const issues = issuesOf(and(cond('country', 'equals', 'US')));
    assert.match(issues['filter.conditions.0.field'], /unknown field "country"/);
  });

  test('an unknown group operator, a missing conditions array, extra properties', () => {
    assert.match(issuesOf({ operator: 'XOR', conditions: [] })['filter.operator'], /unknown group operator "XOR"/);
    assert.match(issuesOf({ operator: 'AND' })['filter.conditions'], /must be an array/);
    assert.match(issuesOf({ ...and(), sql: 'x' })['filter.sql'], /unknown property/);
    assert.match(issuesOf(and({ ...cond('userId', 'equals', 'a'), raw: 1 }))['filter.conditions.0.raw'], /unknown property/);
    assert.match(issuesOf('platform = iOS').filter, /group object/);
    assert.match(issuesOf(and(42))['filter.conditions.0'], /must be a condition/);
  });

  test('an operator that does not apply to the field', () => {
    assert.match(issuesOf(and(cond('platform', 'greater_than', 1)))['filter.conditions.0.operator'], /does not apply/);
    assert.match(issuesOf(and(cond('isActive', 'exists', true)))['filter.conditions.0.operator'], /does not apply/);
    assert.match(issuesOf(and(cond('userId', 'less_than', 3)))['filter.conditions.0.operator'], /does not apply/);
  });

  test('values of the wrong type', () => {
    const issues = issuesOf(
      and(
        cond('platform', 'equals', 'windows'),
        cond('isActive', 'equals', 'yes'),
        cond('userId', 'equals', null),
        cond('deviceMetadata.level', 'greater_than', '5'),
        cond('deviceMetadata.level', 'less_than', Number.NaN),
        cond('deviceMetadata.k', 'exists', 'yes'),
        cond('deviceMetadata.k', 'in', []),
        cond('deviceMetadata.k', 'equals', { nested: 1 }),
        cond('deviceMetadata.', 'equals', 'x'),
        cond('deviceMetadata.k', 'in', 'US'),
      ),
    );
    assert.match(issues['filter.conditions.0.value'], /Android, iOS/);
    assert.match(issues['filter.conditions.1.value'], /true or false/);
    assert.match(issues['filter.conditions.2.value'], /string/);
    assert.match(issues['filter.conditions.3.value'], /finite number/);
    assert.match(issues['filter.conditions.4.value'], /finite number/);
    assert.match(issues['filter.conditions.5.value'], /true or false/);
    assert.match(issues['filter.conditions.6.value'], /array of 1 to/);
    assert.match(issues['filter.conditions.7.value'], /string, a finite number or a boolean/);
    assert.match(issues['filter.conditions.8.field'], /no key/);
    assert.match(issues['filter.conditions.9.value'], /array/);
  });

  test(`groups nest at most ${MAX_DEPTH} deep`, () => {
    let ok: unknown = cond('userId', 'exists', true);
    for (let i = 0; i < MAX_DEPTH; i++) ok = and(ok);
    assert.doesNotThrow(() => compileSegmentFilter(ok));
    const issues = issuesOf(and(ok));
    assert.match(Object.values(issues).join(), new RegExp(`at most ${MAX_DEPTH} levels`));
  });

  test(`at most ${MAX_CONDITIONS} conditions in the whole tree, ${MAX_IN_VALUES} values in one in`, () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => cond('userId', 'equals', `u${i}`));
    assert.doesNotThrow(() => parseSegmentFilter(and(...many(MAX_CONDITIONS / 2), or(...many(MAX_CONDITIONS / 2)))));
    assert.match(issuesOf(and(...many(MAX_CONDITIONS / 2), or(...many(MAX_CONDITIONS / 2 + 1)))).filter, /at most 50/);
    const values = Array.from({ length: MAX_IN_VALUES + 1 }, (_, i) => `v${i}`);
    assert.match(issuesOf(and(cond('userId', 'in', values)))['filter.conditions.0.value'], /1 to 100/);
  });

  test('the error message names the first issues, the issues list has them all', () => {
    try {
      parseSegmentFilter(and(cond('a', 'equals', 1), cond('userId', 'nope', 1)));
      assert.fail('accepted');
    } catch (err) {
      assert.ok(err instanceof SegmentFilterError);
      assert.match(err.message, /filter\.conditions\.0\.field: unknown field "a"/);
      assert.match(err.message, /filter\.conditions\.1\.operator: unknown operator "nope"/);
    }
  });
});
