import { describe, expect, it } from 'vitest';
import { compileError, resource, runSearch } from './fixtures';

const alpha = resource({
  key: 'alpha',
  someProperty: 'first',
  objectTypeProperty: { arrayOfIntExample: [2, 4, 2, 6], arrayOfStringExample: ['dog', 'cat'] },
});
const beta = resource({
  key: 'beta',
  version: 2,
  objectTypeProperty: { arrayOfIntExample: [1, 10, 2], arrayOfStringExample: ['cat', 'bird'] },
});
const gamma = resource({
  key: 'gamma',
  version: 2,
  someProperty: 'third',
  objectTypeProperty: { arrayOfIntExample: [100], arrayOfStringExample: ['cat'] },
});
const delta = resource({ objectTypeProperty: {} });
const docs = [alpha, beta, gamma, delta];

const ints = 'objectTypeProperty.arrayOfIntExample';
const facetsFor = (facet: string | string[]) => runSearch({ facet }, docs).facets ?? {};

describe('term facets', () => {
  it('counts documents per distinct number, by count then term', () => {
    expect(facetsFor(ints)).toEqual({
      [ints]: {
        type: 'terms',
        dataType: 'number',
        missing: 1,
        total: 7,
        other: 0,
        terms: [
          { term: 2, count: 2 },
          { term: 1, count: 1 },
          { term: 4, count: 1 },
          { term: 6, count: 1 },
          { term: 10, count: 1 },
          { term: 100, count: 1 },
        ],
      },
    });
  });

  it('counts documents per distinct string', () => {
    expect(facetsFor('objectTypeProperty.arrayOfStringExample')['objectTypeProperty.arrayOfStringExample']).toEqual({
      type: 'terms',
      dataType: 'text',
      missing: 1,
      total: 5,
      other: 0,
      terms: [
        { term: 'cat', count: 3 },
        { term: 'bird', count: 1 },
        { term: 'dog', count: 1 },
      ],
    });
  });

  it('counts top-level fields', () => {
    expect(facetsFor('version')['version']).toMatchObject({
      missing: 0,
      total: 4,
      terms: [
        { term: 1, count: 2 },
        { term: 2, count: 2 },
      ],
    });
    expect(facetsFor('someProperty')['someProperty']).toMatchObject({ missing: 2, total: 2 });
  });

  it('has no terms when no document has the field', () => {
    const { facets } = runSearch({ facet: 'objectTypeProperty.arrayOfObjectType.integerExample' }, docs);
    expect(facets?.['objectTypeProperty.arrayOfObjectType.integerExample']).toEqual({
      type: 'terms',
      dataType: 'number',
      missing: 4,
      total: 0,
      other: 0,
      terms: [],
    });
  });
});

describe('range facets', () => {
  it('gives count, sum, min, max and mean per range, including from and excluding to', () => {
    const expression = `${ints}:range(0 to 5), range(5 to 100), range(100 to *)`;
    expect(facetsFor(expression)).toEqual({
      [expression]: {
        type: 'range',
        dataType: 'number',
        ranges: [
          {
            type: 'double',
            from: 0,
            fromStr: '0',
            to: 5,
            toStr: '5',
            count: 2,
            totalCount: 5,
            total: 11,
            min: 1,
            max: 4,
            mean: 2.2,
          },
          {
            type: 'double',
            from: 5,
            fromStr: '5',
            to: 100,
            toStr: '100',
            count: 2,
            totalCount: 2,
            total: 16,
            min: 6,
            max: 10,
            mean: 8,
          },
          {
            type: 'double',
            from: 100,
            fromStr: '100',
            to: 0,
            toStr: '',
            count: 1,
            totalCount: 1,
            total: 100,
            min: 100,
            max: 100,
            mean: 100,
          },
        ],
      },
    });
  });

  it('writes an open lower end as 0 and an empty string', () => {
    const expression = `${ints}:range(* to 2)`;
    expect(facetsFor(expression)[expression]).toMatchObject({
      ranges: [{ from: 0, fromStr: '', to: 2, toStr: '2', count: 1, totalCount: 1, total: 1, min: 1, max: 1 }],
    });
  });

  it('gives zeros for a range no value falls in', () => {
    const expression = `${ints}:range(1000 to 2000)`;
    expect(facetsFor(expression)[expression]).toMatchObject({
      ranges: [{ count: 0, totalCount: 0, total: 0, min: 0, max: 0, mean: 0 }],
    });
  });

  it('takes ranges without repeating the keyword', () => {
    const expression = `${ints}:range (0 to 5), (5 to 100)`;
    const ranges = facetsFor(expression)[expression];
    expect(ranges).toMatchObject({ ranges: [{ count: 2 }, { count: 2 }] });
  });

  it('takes decimal bounds', () => {
    const expression = `${ints}:range(1.5 to 2.5)`;
    expect(facetsFor(expression)[expression]).toMatchObject({
      ranges: [{ from: 1.5, fromStr: '1.5', to: 2.5, toStr: '2.5', count: 2, totalCount: 3, total: 6 }],
    });
  });
});

describe('filter facets', () => {
  it('counts the documents matching a filter condition', () => {
    expect(facetsFor('key:"alpha","beta"')).toEqual({ 'key:"alpha","beta"': { type: 'filter', count: 2 } });
    expect(facetsFor(`${ints}:2, range(50 to *)`)[`${ints}:2, range(50 to *)`]).toEqual({ type: 'filter', count: 3 });
    expect(facetsFor('someProperty:missing')['someProperty:missing']).toEqual({ type: 'filter', count: 2 });
  });
});

describe('facet names', () => {
  it('are the expression as given by default', () => {
    const expression = ` ${ints} : range(0 to 5) `;
    expect(Object.keys(facetsFor(expression))).toEqual([expression]);
  });

  it('are set with as', () => {
    const facets = facetsFor(['key as keys', `${ints}:range(0 to 5) as small`, 'someProperty:exists as withProperty']);
    expect(Object.keys(facets)).toEqual(['keys', 'small', 'withProperty']);
    expect(facets['keys']).toMatchObject({ type: 'terms', total: 3 });
    expect(facets['small']).toMatchObject({ type: 'range' });
    expect(facets['withProperty']).toEqual({ type: 'filter', count: 2 });
  });

  it('stay plain keys, even __proto__', () => {
    const facets = facetsFor('key as __proto__');
    expect(Object.keys(facets)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(facets)).toBe(Object.prototype);
  });

  it('must differ', () => {
    expect(compileError({ facet: ['key as k', 'version as k'] })).toEqual({
      name: 'ParameterError',
      parameter: 'facet',
      message: "Malformed parameter: facet: Two facets are named 'k'; rename one with 'as <name>'.",
    });
    expect(compileError({ facet: ['key', 'key'] }).parameter).toBe('facet');
  });
});

describe('facet errors', () => {
  const refusal = (facet: string) => compileError({ facet });

  it('names an unknown field', () => {
    expect(refusal('objectTypeProperty.nope')).toEqual({
      name: 'ParameterError',
      parameter: 'facet',
      message: "Malformed parameter: facet: Unknown field 'objectTypeProperty.nope'.",
    });
  });

  it('refuses a term facet on a field holding objects', () => {
    expect(refusal('objectTypeProperty').message).toBe(
      "Malformed parameter: facet: The field 'objectTypeProperty' holds no numbers or text, so it has no terms to count.",
    );
  });

  it('refuses a range facet on a text field', () => {
    expect(refusal('key:range("a" to "m")').message).toBe(
      "Malformed parameter: facet: Range facets count numbers or date-times, but the field 'key' holds text.",
    );
    expect(refusal('key:range(0 to 5)').message).toContain("The field 'key' holds text");
  });

  it.each([
    ['key as', "Expected a facet name after 'as' but found the end of the expression at column 7 of 'key as'."],
    ['key as a b', "Expected the end of the expression but found 'b' at column 10 of 'key as a b'."],
    ['key keys', "Expected ':', 'as' or the end of the expression but found 'keys' at column 5 of 'key keys'."],
    [
      'version:1 2',
      "Expected ',', 'as' or the end of the expression but found '2' at column 11 of 'version:1 2'.",
    ],
    ['key:exists x', "Expected 'as' or the end of the expression but found 'x' at column 12 of 'key:exists x'."],
    ['version:range(0 to 5', "Expected ')' but found the end of the expression at column 21 of 'version:range(0 to 5'."],
  ])('says where %s goes wrong', (facet, detail) => {
    expect(refusal(facet)).toEqual({ name: 'ParameterError', parameter: 'facet', message: `Malformed parameter: facet: ${detail}` });
  });
});

describe('bounded term facets', () => {
  const many = Array.from({ length: 40 }, (_, n) => resource({ key: `k-${String(n).padStart(2, '0')}`, version: 1 + (n % 4) }));

  it('lists the 10 most frequent by default, ties by term; other counts what was left out, total everything', () => {
    const keys = runSearch({ facet: 'key' }, many).facets['key'];
    expect(keys).toMatchObject({ missing: 0, total: 40, other: 30 });
    expect(keys?.type === 'terms' && keys.terms.map((term) => term.term)).toEqual(Array.from({ length: 10 }, (_, n) => `k-${String(n).padStart(2, '0')}`));
  });

  it('lists facetLimit terms', () => {
    expect(runSearch({ facet: 'version', facetLimit: '2' }, many).facets['version']).toEqual({
      type: 'terms',
      dataType: 'number',
      missing: 0,
      total: 40,
      other: 20,
      terms: [
        { term: 1, count: 10 },
        { term: 2, count: 10 },
      ],
    });
  });

  it('writes instants back as ISO 8601 UTC', () => {
    const docs = [resource({ createdAt: '2026-11-29T06:08:00Z' }), resource({ createdAt: '2026-11-29T07:08:00.000+01:00' })];
    expect(runSearch({ facet: 'createdAt' }, docs).facets['createdAt']).toMatchObject({
      dataType: 'datetime',
      total: 2,
      terms: [{ term: '2026-11-29T06:08:00.000Z', count: 2 }],
    });
  });
});
