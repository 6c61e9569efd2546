import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../shared/domain/errors';
import { instantOf } from '../../../shared/domain/query/field-values';
import { resourceJsonSchema } from '../../../shared/domain/resource-fields';
import { FieldCatalog, type Field } from '../../../shared/domain/search/field-catalog';
import { compileProductSearch, productSearchFacetResults } from '../../../shared/domain/search/product-search';
import { MAX_QUERY_DEPTH, MAX_QUERY_EXPRESSIONS } from '../../../shared/domain/search/product-search-request';
import type { FacetCounts, FacetRequest } from '../../../shared/domain/search/search-model';
import examples from '../../../shared/http/contract/product-search-examples.json' with { type: 'json' };
import { productSearchBodies } from '../../support/product-search-bodies';

const catalog = new FieldCatalog(resourceJsonSchema());
/** The resource's fields; `createdAt` and `lastModifiedAt` hold instants (kind 'datetime'), as the catalog reads date-time fields. */
const fields = {
  lookup: (path: string): Field | undefined => {
    const field = catalog.lookup(path);
    return field && (path === 'createdAt' || path === 'lastModifiedAt') ? ({ ...field, kind: 'datetime' } as unknown as Field) : field;
  },
} as FieldCatalog;

const compile = (body: unknown) => compileProductSearch(body, fields);
const request = (body: unknown) => compile(body).request;
const query = (expression: unknown) => request({ query: expression }).query;
const field = (path: string) => expect.objectContaining({ path, kind: fields.lookup(path)!.kind });

/** The messages of the refusal, each naming its place in the body. */
function refusal(body: unknown): string[] {
  try {
    compile(body);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const { errors } = error as DomainError;
    expect(errors.every((problem) => problem.code === 'InvalidInput')).toBe(true);
    return errors.map((problem) => problem.message);
  }
  throw new Error(`accepted: ${JSON.stringify(body)}`);
}

describe('Product Search requests in the search model: expressions', () => {
  it('compounds hold their expressions, in order', () => {
    const exists = { exists: { field: 'key' } };
    for (const kind of ['and', 'or', 'not', 'filter'] as const) {
      expect(query({ [kind]: [exists, exists] })).toEqual({ kind, of: [{ kind: 'exists', field: field('key') }, { kind: 'exists', field: field('key') }] });
    }
  });

  it('exact takes one value or several, of the field\'s kind, case-sensitive unless asked', () => {
    expect(query({ exact: { field: 'key', value: 'lamp' } })).toEqual({ kind: 'exact', field: field('key'), values: ['lamp'], caseInsensitive: false });
    expect(query({ exact: { field: 'objectTypeProperty.arrayOfIntExample', values: [1, 2], caseInsensitive: true } })).toEqual({
      kind: 'exact',
      field: field('objectTypeProperty.arrayOfIntExample'),
      values: [1, 2],
      caseInsensitive: true,
    });
    expect(query({ exact: { field: 'createdAt', value: '2026-11-29T07:00:00+01:00' } })).toMatchObject({ values: [Date.UTC(2026, 10, 29, 6)] });
  });

  it('range keeps the bounds given: numbers, texts, and instants as epoch milliseconds whatever their offset and precision', () => {
    expect(query({ range: { field: 'version', gt: 1, lte: 5 } })).toEqual({ kind: 'range', field: field('version'), gt: 1, lte: 5 });
    expect(query({ range: { field: 'key', gte: 'a', lt: 'm' } })).toEqual({ kind: 'range', field: field('key'), gte: 'a', lt: 'm' });
    expect(query({ range: { field: 'lastModifiedAt', gte: '2026-11-29T07:00:00+01:00', lt: '2026-11-29T06:00:00.500Z' } })).toMatchObject({
      gte: Date.UTC(2026, 10, 29, 6),
      lt: Date.UTC(2026, 10, 29, 6, 0, 0, 500),
    });
  });

  it('exists takes any field, objects included; prefix and wildcard take text fields', () => {
    expect(query({ exists: { field: 'objectTypeProperty.arrayOfObjectType' } })).toEqual({ kind: 'exists', field: field('objectTypeProperty.arrayOfObjectType') });
    expect(query({ prefix: { field: 'key', value: 'La', caseInsensitive: true } })).toEqual({ kind: 'prefix', field: field('key'), value: 'La', caseInsensitive: true });
    expect(query({ wildcard: { field: 'someProperty', value: 'l?mp*' } })).toEqual({ kind: 'wildcard', field: field('someProperty'), pattern: 'l?mp*', caseInsensitive: false });
  });

  it('fullText: the analysed words, all of them unless `any`, in a field or in every text', () => {
    expect(query({ fullText: { value: 'Red  CAFÉ red', language: 'en' } })).toEqual({
      kind: 'text',
      field: undefined,
      terms: [
        { word: 'red', edits: 0, prefix: false },
        { word: expect.stringMatching(/^caf/), edits: 0, prefix: false },
      ],
      mustMatch: 'all',
      language: 'en',
    });
    expect(query({ fullText: { field: 'objectTypeProperty.arrayOfStringExample', value: 'dog', mustMatch: 'any' } })).toMatchObject({
      field: field('objectTypeProperty.arrayOfStringExample'),
      mustMatch: 'any',
      language: undefined,
    });
  });

  it('fullTextPrefix: the last word is a prefix (search as you type)', () => {
    expect(query({ fullTextPrefix: { value: 'red lan' } })).toMatchObject({
      terms: [
        { word: 'red', edits: 0, prefix: false },
        { word: 'lan', edits: 0, prefix: true },
      ],
    });
  });

  it("fuzzy: each word's edits are the level asked, capped by the word's length as the platform's default level", () => {
    expect(query({ fuzzy: { value: 'ab dog lantern', level: 2 } })).toMatchObject({
      terms: [
        { word: 'ab', edits: 0, prefix: false },
        { word: 'dog', edits: 1, prefix: false },
        { word: 'lantern', edits: 2, prefix: false },
      ],
    });
    expect(query({ fuzzy: { value: 'lantern', level: 1 } })).toMatchObject({ terms: [{ word: 'lantern', edits: 1 }] });
    expect(query({ fuzzy: { value: 'lantern', level: 0 } })).toMatchObject({ terms: [{ word: 'lantern', edits: 0 }] });
  });

  it('accepts and ignores what changes nothing here: boost, a fitting fieldType, a language on exact, markMatchingVariants', () => {
    const plain = request({ query: { exact: { field: 'version', value: 1 } } });
    expect(request({ query: { exact: { field: 'version', value: 1, boost: 2, fieldType: 'number', language: 'en' } }, markMatchingVariants: true })).toEqual(plain);
    expect(query({ exact: { field: 'objectTypeProperty.arrayOfIntExample', value: 1, fieldType: 'set_number' } })).toMatchObject({ kind: 'exact' });
  });
});

describe('Product Search requests in the search model: sort, page, facets', () => {
  it('sorts by score or by a field, min ascending and max descending unless a mode is given', () => {
    expect(
      request({
        sort: [
          { field: 'score', order: 'desc' },
          { field: 'objectTypeProperty.arrayOfIntExample', order: 'asc' },
          { field: 'objectTypeProperty.arrayOfIntExample', order: 'desc' },
          { field: 'objectTypeProperty.arrayOfIntExample', order: 'desc', mode: 'avg' },
          { field: 'createdAt', order: 'asc', mode: 'max' },
        ],
      }).sort,
    ).toEqual([
      { by: 'score', direction: -1 },
      { by: 'field', field: field('objectTypeProperty.arrayOfIntExample'), direction: 1, mode: 'min' },
      { by: 'field', field: field('objectTypeProperty.arrayOfIntExample'), direction: -1, mode: 'max' },
      { by: 'field', field: field('objectTypeProperty.arrayOfIntExample'), direction: -1, mode: 'avg' },
      { by: 'field', field: field('createdAt'), direction: 1, mode: 'max' },
    ]);
  });

  it('pages 20 from the start by default, always with the total; resources only when asked', () => {
    expect(compile({})).toEqual({ request: { query: undefined, postFilter: undefined, facets: [], sort: [], page: { limit: 20, offset: 0, withTotal: true } }, withResources: false });
    expect(compile({ limit: 100, offset: 10_000, resourceParameters: {} })).toMatchObject({ request: { page: { limit: 100, offset: 10_000 } }, withResources: true });
    expect(request({ postFilter: { exists: { field: 'key' } } }).postFilter).toEqual({ kind: 'exists', field: field('key') });
  });

  it('distinct: 10 buckets by count, highest first, unless asked otherwise; includes read as the field\'s values', () => {
    expect(request({ facets: [{ distinct: { name: 'keys', field: 'key' } }] }).facets).toEqual([
      { kind: 'distinct', name: 'keys', field: field('key'), scope: 'query', filter: undefined, limit: 10, order: { by: 'count', direction: -1 }, includes: undefined, missing: undefined },
    ]);
    const [distinct] = request({
      facets: [
        {
          distinct: {
            name: 'ints',
            field: 'objectTypeProperty.arrayOfIntExample',
            limit: 200,
            sort: { by: 'key', order: 'asc' },
            includes: ['1', '2.5'],
            missing: 'none',
            scope: 'all',
            level: 'products',
            filter: { exists: { field: 'key' } },
          },
        },
      ],
    }).facets;
    expect(distinct).toEqual({
      kind: 'distinct',
      name: 'ints',
      field: field('objectTypeProperty.arrayOfIntExample'),
      scope: 'all',
      filter: { kind: 'exists', field: field('key') },
      limit: 200,
      order: { by: 'value', direction: 1 },
      includes: [1, 2.5],
      missing: 'none',
    });
    expect(request({ facets: [{ distinct: { name: 'days', field: 'createdAt', includes: ['2026-11-29T06:00:00Z'] } }] }).facets[0]).toMatchObject({ includes: [Date.UTC(2026, 10, 29, 6)] });
  });

  it('ranges of numbers or instants, count and stats', () => {
    expect(
      request({
        facets: [
          { ranges: { name: 'ints', field: 'version', ranges: [{ to: 2 }, { from: 2, to: 5, key: 'few' }, {}] } },
          { ranges: { name: 'made', field: 'createdAt', ranges: [{ from: '2026-01-01T00:00:00Z' }] } },
          { count: { name: 'all', scope: 'all' } },
          { stats: { name: 'versions', field: 'version', filter: { exists: { field: 'key' } } } },
        ],
      }).facets,
    ).toEqual([
      { kind: 'ranges', name: 'ints', field: field('version'), scope: 'query', filter: undefined, ranges: [{ to: 2 }, { from: 2, to: 5, key: 'few' }, {}] },
      { kind: 'ranges', name: 'made', field: field('createdAt'), scope: 'query', filter: undefined, ranges: [{ from: Date.UTC(2026, 0, 1) }] },
      { kind: 'count', name: 'all', scope: 'all', filter: undefined },
      { kind: 'stats', name: 'versions', field: field('version'), scope: 'query', filter: { kind: 'exists', field: field('key') } },
    ]);
  });

  it("compiles the document's examples", () => {
    for (const { value } of Object.values(examples)) expect(() => compile(value)).not.toThrow();
  });
});

describe('Product Search requests refused: 400 InvalidInput naming the expression at fault', () => {
  it.each([
    ['an unknown field', { query: { and: [{ exists: { field: 'key' } }, { exact: { field: 'x', value: 1 } }] } }, "query.and[1].exact.field: Unknown field 'x'."],
    ['a value of another kind', { query: { exact: { field: 'version', value: '1' } } }, `query.exact.value: Expected a number for the field 'version', found "1".`],
    ['text for a number in a list', { postFilter: { exact: { field: 'version', values: [1, 'two'] } } }, 'postFilter.exact.values[1]: Expected a number'],
    ['a date that is no instant', { query: { range: { field: 'createdAt', gte: '2026-02-30' } } }, "query.range.gte: Expected an ISO 8601 date-time for the field 'createdAt'"],
    ['a field of another kind', { query: { prefix: { field: 'version', value: '1' } } }, "query.prefix.field: The field 'version' holds numbers: expected a field of text."],
    ['a field without values to compare', { query: { exact: { field: 'objectTypeProperty', value: 1 } } }, 'query.exact.field: The field \'objectTypeProperty\' holds no value to compare'],
    ['full text in a number field', { query: { fullText: { field: 'version', value: '1' } } }, 'query.fullText.field: The field'],
    ['a fieldType that does not fit', { query: { exact: { field: 'version', value: 1, fieldType: 'text' } } }, "query.exact.fieldType: The field 'version' holds numbers, not text."],
    ['an unknown property', { query: { exact: { field: 'key', value: 'a', exactly: true } } }, 'query.exact.exactly: Unknown property.'],
    ['an unknown property of the body', { query: { exists: { field: 'key' } }, expand: ['x'] }, 'expand: Unknown property.'],
    ['neither value nor values', { query: { exact: { field: 'key' } } }, 'query.exact: Expected either value or values.'],
    ['both value and values', { query: { exact: { field: 'key', value: 'a', values: ['b'] } } }, 'query.exact: Expected either value or values.'],
    ['a range without bounds', { query: { not: [{ range: { field: 'version' } }] } }, 'query.not[0].range: Expected at least one of gt, gte, lt and lte.'],
    ['an empty compound', { query: { or: [] } }, 'query.or: Too small'],
    ['no expression', { query: {} }, 'query: Expected an object holding exactly one of and, or, not, filter, exact,'],
    ['two expressions in one object', { query: { and: [{ exists: { field: 'key' }, prefix: { field: 'key', value: 'a' } }] } }, 'query.and[0]: Expected an object holding exactly one of'],
    ['an unknown expression', { query: { match: { field: 'key' } } }, 'query: Expected an object holding exactly one of'],
    ['an unknown facet', { facets: [{ terms: { name: 'a', field: 'key' } }] }, 'facets[0]: Expected an object holding exactly one of distinct, ranges, count or stats.'],
    ['a fuzzy level above 2', { query: { fuzzy: { value: 'lantern', level: 3 } } }, 'query.fuzzy.level: Too big'],
    ['a fuzzy without level', { query: { fuzzy: { value: 'lantern' } } }, 'query.fuzzy.level: Invalid input'],
    ['text without a word', { query: { fullText: { value: '?!' } } }, 'query.fullText.value: Holds no word to search for.'],
    ['a text over 256 characters', { query: { fullText: { value: 'a'.repeat(257) } } }, 'query.fullText.value: Too big'],
    ['a locale that is none', { query: { fullText: { value: 'dog', language: 'english' } } }, 'query.fullText.language: Invalid string'],
    ['limit over 100', { limit: 101 }, 'limit: Too big'],
    ['offset over 10,000', { offset: 10_001 }, 'offset: Too big'],
    ['a sort by avg of text', { sort: [{ field: 'key', order: 'asc', mode: 'avg' }] }, 'sort[0].mode: Only number fields sort by avg.'],
    ['a sort filter', { sort: [{ field: 'key', order: 'asc', filter: { exists: { field: 'key' } } }] }, 'sort[0].filter: Unknown property.'],
    ['counting variants', { facets: [{ count: { name: 'v', level: 'variants' } }] }, 'facets[0].count.level: Invalid input'],
    ['a distinct limit over 200', { facets: [{ distinct: { name: 'k', field: 'key', limit: 201 } }] }, 'facets[0].distinct.limit: Too big'],
    ['includes of another kind', { facets: [{ distinct: { name: 'v', field: 'version', includes: ['one'] } }] }, 'facets[0].distinct.includes[0]: Expected a number'],
    ['ranges of text', { facets: [{ ranges: { name: 'k', field: 'key', ranges: [{ from: 'a' }] } }] }, "facets[0].ranges.field: The field 'key' holds text: expected a field of numbers or date-times."],
    ['a bound of another kind', { facets: [{ ranges: { name: 'v', field: 'version', ranges: [{ from: 1 }, { to: 'x' }] } }] }, 'facets[0].ranges.ranges[1].to: Expected a number'],
    ['a facet filter at fault', { facets: [{ count: { name: 'c', filter: { and: [{ exact: { field: 'nope', value: 1 } }] } } }] }, "facets[0].count.filter.and[0].exact.field: Unknown field 'nope'."],
    ['a body that is no object', [], 'body: Invalid input: expected object'],
  ])('%s', (_, body, message) => {
    expect(refusal(body)[0]).toContain(message);
  });

  it('lists each problem of the shape, up to the listed-problems limit', () => {
    expect(refusal({ limit: 'ten', offset: -1, query: { exact: {} } })).toEqual([
      expect.stringMatching(/^query\.exact\.field: /),
      expect.stringMatching(/^limit: /),
      expect.stringMatching(/^offset: /),
    ]);
    const invalid = { and: Array.from({ length: MAX_QUERY_EXPRESSIONS - 1 }, () => ({ exact: { field: 1 } })) };
    expect(refusal({ query: invalid, postFilter: invalid, facets: [{ count: { name: 'c', filter: invalid } }] })).toHaveLength(100);
  });

  it(`bounds a query before its shape: at most ${MAX_QUERY_EXPRESSIONS} expressions, compounds nested at most ${MAX_QUERY_DEPTH} deep, each query on its own`, () => {
    const exists = { exists: { field: 'key' } };
    const flat = (count: number) => ({ and: Array.from({ length: count - 1 }, () => exists) });
    expect(() => query(flat(MAX_QUERY_EXPRESSIONS))).not.toThrow();
    expect(refusal({ query: flat(MAX_QUERY_EXPRESSIONS + 1) })[0]).toBe(`query.and[${MAX_QUERY_EXPRESSIONS - 1}]: A query holds at most ${MAX_QUERY_EXPRESSIONS} expressions.`);
    expect(() => request({ query: flat(MAX_QUERY_EXPRESSIONS), postFilter: flat(MAX_QUERY_EXPRESSIONS), facets: [{ count: { name: 'c', filter: flat(MAX_QUERY_EXPRESSIONS) } }] })).not.toThrow();
    const nested = (depth: number): unknown => (depth === 0 ? exists : { not: [nested(depth - 1)] });
    expect(() => query(nested(MAX_QUERY_DEPTH))).not.toThrow();
    expect(refusal({ query: nested(MAX_QUERY_DEPTH + 1) })[0]).toMatch(/^query(\.not\[0\]){10}\.not: Compound expressions nest at most 10 deep\.$/);
    // A body of 256 KB holds thousands of expressions: refused at the first one past the bound, invalid ones and all.
    const invalid = Array.from({ length: 12_000 }, () => ({ exact: { field: 1 } }));
    expect(refusal({ facets: [{ count: { name: 'c', filter: { exists: { field: 'key' }, or: invalid } } }] })).toEqual([
      `facets[0].count.filter.or[${MAX_QUERY_EXPRESSIONS - 1}]: A query holds at most ${MAX_QUERY_EXPRESSIONS} expressions.`,
    ]);
  });

  it('bounds the facets (20), the values of an exact (100) and the sort keys (10)', () => {
    const count = { count: { name: 'c' } };
    expect(() => request({ facets: Array.from({ length: 20 }, () => count) })).not.toThrow();
    expect(refusal({ facets: Array.from({ length: 21 }, () => count) })[0]).toMatch(/^facets: Too big/);
    expect(refusal({ query: { exact: { field: 'version', values: Array.from({ length: 101 }, (_, n) => n) } } })[0]).toMatch(/^query\.exact\.values: Too big/);
    expect(refusal({ sort: Array.from({ length: 11 }, () => ({ field: 'key', order: 'asc' })) })[0]).toMatch(/^sort: Too big/);
  });
});

describe('generated Product Search bodies (the differential test\'s)', () => {
  it('each compiles to the model or is refused with InvalidInput naming where; most compile, and every expression and facet occurs', () => {
    const bodies = productSearchBodies({
      words: ['dog', 'dgo', 'cat', 'über', 'zebras'],
      numberFields: ['version', 'objectTypeProperty.arrayOfIntExample', 'objectTypeProperty.arrayOfObjectType.integerExample'],
      numbers: fc.integer({ min: -2, max: 21 }),
      textFields: ['key', 'objectTypeProperty.arrayOfStringExample'],
      dateTimeFields: ['createdAt', 'lastModifiedAt'],
      instants: [Date.UTC(2026, 10, 29, 6)],
      otherFields: ['objectTypeProperty.arrayOfObjectType'],
    });
    const seen = new Set<string>();
    let refused = 0;
    for (const body of fc.sample(bodies, { numRuns: 500, seed: 39 })) {
      const json = JSON.stringify(body);
      for (const kind of ['and', 'or', 'not', 'filter', 'exact', 'fullText', 'fullTextPrefix', 'fuzzy', 'prefix', 'wildcard', 'range', 'exists', 'distinct', 'ranges', 'count', 'stats']) {
        if (json.includes(`"${kind}":`)) seen.add(kind);
      }
      try {
        expect(compile(body).request.page.withTotal).toBe(true);
      } catch (error) {
        refused++;
        expect((error as DomainError).errors[0]).toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/^(query|postFilter|facets|sort)[\w.[\]]*: /) });
      }
    }
    expect(seen.size).toBe(16);
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(50);
  });
});

describe("the engine's facet counts in Product Search's answer", () => {
  const intField = fields.lookup('objectTypeProperty.arrayOfIntExample')!;
  const dateField = fields.lookup('createdAt')!;
  const textField = fields.lookup('key')!;
  const distinct = (field: Field, missing?: string): FacetRequest => ({ kind: 'distinct', name: 'd', field, scope: 'query', limit: 10, order: { by: 'count', direction: -1 }, missing });
  const distinctCounts = (buckets: { value: number | string; count: number }[], missing: number): FacetCounts => ({ kind: 'distinct', buckets, missing, total: 9, other: 0 });

  it('distinct: keys as strings (numbers as JSON writes them, instants in ISO 8601 UTC), the missing bucket last when asked and held', () => {
    expect(productSearchFacetResults([distinct(intField)], [distinctCounts([{ value: 2.5, count: 3 }, { value: 1, count: 1 }], 4)])).toEqual([
      { name: 'd', buckets: [{ key: '2.5', count: 3 }, { key: '1', count: 1 }] },
    ]);
    const instant = instantOf('2026-11-29T07:00:00+01:00')!;
    expect(productSearchFacetResults([distinct(dateField, 'never')], [distinctCounts([{ value: instant, count: 2 }], 3)])).toEqual([
      { name: 'd', buckets: [{ key: '2026-11-29T06:00:00.000Z', count: 2 }, { key: 'never', count: 3 }] },
    ]);
    expect(productSearchFacetResults([distinct(textField, 'none')], [distinctCounts([{ value: 'lamp', count: 2 }], 0)])).toEqual([{ name: 'd', buckets: [{ key: 'lamp', count: 2 }] }]);
  });

  it('ranges: a bucket per range in the order asked, keyed as asked or `<from>-<to>` with `*` for an open end', () => {
    const counts = (resources: number) => ({ resources, values: resources, sum: 0, min: undefined, max: undefined });
    const ranges: FacetRequest = { kind: 'ranges', name: 'r', field: dateField, scope: 'query', ranges: [{ to: Date.UTC(2026, 0, 1) }, { from: Date.UTC(2026, 0, 1), key: 'new' }] };
    expect(productSearchFacetResults([ranges], [{ kind: 'ranges', ranges: [counts(4), counts(1)] }])).toEqual([
      { name: 'r', buckets: [{ key: '*-2026-01-01T00:00:00.000Z', count: 4 }, { key: 'new', count: 1 }] },
    ]);
    const numbers: FacetRequest = { kind: 'ranges', name: 'n', field: intField, scope: 'query', ranges: [{ from: 0, to: 10 }, { from: 10 }] };
    expect(productSearchFacetResults([numbers], [{ kind: 'ranges', ranges: [counts(2), counts(0)] }])).toEqual([{ name: 'n', buckets: [{ key: '0-10', count: 2 }, { key: '10-*', count: 0 }] }]);
  });

  it('count as `value`; stats with mean and sum for numbers, min and max of the field\'s kind, null without values', () => {
    expect(productSearchFacetResults([{ kind: 'count', name: 'c', scope: 'all' }], [{ kind: 'count', count: 7 }])).toEqual([{ name: 'c', value: 7 }]);
    const stats = (field: Field): FacetRequest => ({ kind: 'stats', name: 's', field, scope: 'query' });
    expect(productSearchFacetResults([stats(intField)], [{ kind: 'stats', count: 4, min: 1, max: 5, sum: 10 }])).toEqual([{ name: 's', min: 1, max: 5, mean: 2.5, sum: 10, count: 4 }]);
    expect(productSearchFacetResults([stats(intField)], [{ kind: 'stats', count: 0, sum: 0 }])).toEqual([{ name: 's', min: null, max: null, count: 0 }]);
    expect(productSearchFacetResults([stats(dateField)], [{ kind: 'stats', count: 2, min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 0, 2) }])).toEqual([
      { name: 's', min: '2026-01-01T00:00:00.000Z', max: '2026-01-02T00:00:00.000Z', count: 2 },
    ]);
    expect(productSearchFacetResults([stats(textField)], [{ kind: 'stats', count: 2, min: 'a', max: 'b' }])).toEqual([{ name: 's', min: 'a', max: 'b', count: 2 }]);
  });
});
