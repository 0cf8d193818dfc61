// The pure rules of event triggers (domain/push/trigger.rules.ts): which conditions are
// well formed, when each operator holds (with its type rules), and how placeholders render.
import assert from 'node:assert/strict';
import { conditionHolds, conditionProblem, conditionsHold, cut, renderFiring, renderTemplate, textOf } from '../../domain/push/trigger.rules';
import type { TriggerCondition } from '../../domain/push/types';

const c = (field: string, operator: TriggerCondition['operator'], value?: TriggerCondition['value']): TriggerCondition => ({ field, operator, value });
const holds = (cond: TriggerCondition, props: Record<string, unknown>) => conditionHolds(cond, props);

describe('conditionProblem', () => {
  it('accepts each operator with its value type', () => {
    for (const ok of [
      c('properties.a', 'equals', 'x'), c('properties.a', 'equals', 1), c('properties.a', 'equals', null), c('properties.a', 'not_equals', false),
      c('properties.a', 'greater_than', 5), c('properties.a', 'less_than', -1.5), c('properties.a', 'contains', 'x'), c('properties.a', 'contains', 3),
      c('properties.a', 'exists'), c('properties.a', 'exists', false),
    ]) assert.equal(conditionProblem(ok), null, JSON.stringify(ok));
  });
  it('refuses a field outside properties, an unknown operator, a value of the wrong type', () => {
    assert.equal(conditionProblem({ field: 'deviceMetadata.a', operator: 'equals', value: 1 })?.path, 'field');
    assert.equal(conditionProblem({ field: 'properties.', operator: 'equals', value: 1 })?.path, 'field');
    assert.equal(conditionProblem({ field: `properties.${'x'.repeat(101)}`, operator: 'equals', value: 1 })?.path, 'field');
    assert.equal(conditionProblem({ field: 'properties.a', operator: 'like', value: 1 })?.path, 'operator');
    assert.equal(conditionProblem({ field: 'properties.a', operator: 'greater_than', value: '5' })?.path, 'value');
    assert.equal(conditionProblem({ field: 'properties.a', operator: 'less_than' })?.path, 'value');
    assert.equal(conditionProblem({ field: 'properties.a', operator: 'contains', value: null })?.path, 'value');
    assert.equal(conditionProblem({ field: 'properties.a', operator: 'exists', value: 'yes' })?.path, 'value');
    assert.equal(conditionProblem({ field: 'properties.a', operator: 'equals', value: { a: 1 } })?.path, 'value');
  });
});

describe('conditionHolds', () => {
  it('equals / not_equals: same JSON type and value; a missing property equals nothing', () => {
    assert.ok(holds(c('properties.plan', 'equals', 'gold'), { plan: 'gold' }));
    assert.ok(!holds(c('properties.n', 'equals', 5), { n: '5' }));
    assert.ok(holds(c('properties.n', 'equals', null), { n: null }));
    assert.ok(!holds(c('properties.n', 'equals', null), {}));
    assert.ok(holds(c('properties.plan', 'not_equals', 'gold'), { plan: 'silver' }));
    assert.ok(holds(c('properties.plan', 'not_equals', 'gold'), {}));
    assert.ok(!holds(c('properties.plan', 'not_equals', 'gold'), { plan: 'gold' }));
  });
  it('greater_than / less_than: numbers only', () => {
    assert.ok(holds(c('properties.amount', 'greater_than', 50), { amount: 50.01 }));
    assert.ok(!holds(c('properties.amount', 'greater_than', 50), { amount: 50 }));
    assert.ok(!holds(c('properties.amount', 'greater_than', 50), { amount: '120' }));
    assert.ok(!holds(c('properties.amount', 'greater_than', 50), {}));
    assert.ok(holds(c('properties.amount', 'less_than', 0), { amount: -1 }));
    assert.ok(!holds(c('properties.amount', 'less_than', 0), { amount: null }));
  });
  it('contains: a substring of a string, an element of an array', () => {
    assert.ok(holds(c('properties.item', 'contains', 'boot'), { item: 'red boots' }));
    assert.ok(!holds(c('properties.item', 'contains', 'Boot'), { item: 'red boots' }));
    assert.ok(holds(c('properties.tags', 'contains', 'sale'), { tags: ['new', 'sale'] }));
    assert.ok(holds(c('properties.ids', 'contains', 3), { ids: [1, 3] }));
    assert.ok(!holds(c('properties.ids', 'contains', '3'), { ids: [1, 3] }));
    assert.ok(!holds(c('properties.n', 'contains', 1), { n: 1 }));
    assert.ok(!holds(c('properties.n', 'contains', 'x'), {}));
  });
  it('exists: present and not null (false: absent or null)', () => {
    assert.ok(holds(c('properties.coupon', 'exists'), { coupon: '' }));
    assert.ok(holds(c('properties.coupon', 'exists', true), { coupon: 0 }));
    assert.ok(!holds(c('properties.coupon', 'exists'), { coupon: null }));
    assert.ok(!holds(c('properties.coupon', 'exists'), {}));
    assert.ok(holds(c('properties.coupon', 'exists', false), {}));
    assert.ok(holds(c('properties.coupon', 'exists', false), { coupon: null }));
    assert.ok(!holds(c('properties.coupon', 'exists', false), { coupon: 'X' }));
  });
  it('inherited names are not properties', () => {
    assert.ok(!holds(c('properties.constructor', 'exists'), {}));
    assert.ok(!holds(c('properties.__proto__', 'exists'), JSON.parse('{}')));
  });
  it('conditionsHold: all of them; none always holds', () => {
    const both = [c('properties.amount', 'greater_than', 50), c('properties.plan', 'equals', 'gold')];
    assert.ok(conditionsHold(both, { amount: 60, plan: 'gold' }));
    assert.ok(!conditionsHold(both, { amount: 60, plan: 'silver' }));
    assert.ok(conditionsHold([], {}));
  });
});

describe('rendering', () => {
  it('fills placeholders, missing ones as empty text, values as text', () => {
    assert.equal(renderTemplate('Hi {{properties.name}}, {{ properties.n }} {{properties.missing}}!', { name: 'Ada', n: 3 }), 'Hi Ada, 3 !');
    assert.equal(renderTemplate('{{properties.o}}|{{properties.nul}}|{{properties.b}}', { o: { a: [1] }, nul: null, b: false }), '{"a":[1]}||false');
    assert.equal(renderTemplate('{{name}} {{properties}} {{properties.a.b}}', { a: 'x', 'a.b': 'dotted' }), '{{name}} {{properties}} dotted');
  });
  it('hostile values stay text: one pass, no evaluation, no replacement patterns', () => {
    const props = { a: '{{properties.b}}', b: 'B', code: '${process.exit(1)}', dollar: "$& $' $`", nul: 'x\u0000y' };
    assert.equal(renderTemplate('{{properties.a}} {{properties.code}} {{properties.dollar}} {{properties.nul}}', props), "{{properties.b}} ${process.exit(1)} $& $' $` xy");
  });
  it('cuts a firing to what one push holds', () => {
    const big = renderFiring({ title: '{{properties.t}}', body: '{{properties.b}}' }, { t: 'é'.repeat(1000), b: '😀'.repeat(5000) });
    assert.equal(Array.from(big.title).length, 256);
    assert.ok(Array.from(big.body).length <= 2048);
    assert.ok(Buffer.byteLength(big.title) + Buffer.byteLength(big.body) <= 3072);
    assert.ok(!big.body.includes('\ufffd'));
    assert.equal(cut('abc', 2, 100), 'ab');
    assert.equal(textOf(undefined), '');
  });
});
