import { describe, expect, it } from 'vitest';
import { compile, compileError, resource, runSearch } from './fixtures';

const alpha = resource({ key: 'alpha', someProperty: 'red dog', objectTypeProperty: { arrayOfIntExample: [1] } });
const beta = resource({ key: 'beta', someProperty: 'red cat', objectTypeProperty: { arrayOfIntExample: [2] } });
const gamma = resource({ key: 'gamma', someProperty: 'blue dog', objectTypeProperty: { arrayOfIntExample: [2] } });
const delta = resource({ key: 'delta', someProperty: 'blue cat', objectTypeProperty: { arrayOfIntExample: [3] } });
const docs = [alpha, beta, gamma, delta];

/** Which keys the `key` term facet counted. */
const countedKeys = (params: Record<string, string | string[]>) => {
  const facet = runSearch({ ...params, facet: 'key' }, docs).facets?.['key'];
  return facet?.type === 'terms' ? facet.terms.map((term) => term.term).sort() : [];
};
const resultKeys = (params: Record<string, string | string[]>) => runSearch(params, docs).keys;

describe('the three filter scopes', () => {
  it('filter restricts the results but not the facet counts', () => {
    const params = { filter: 'key:"alpha","beta"' };
    expect(resultKeys(params)).toEqual(['alpha', 'beta']);
    expect(countedKeys(params)).toEqual(['alpha', 'beta', 'delta', 'gamma']);
  });

  it('filter.query restricts both the results and the facet counts', () => {
    const params = { 'filter.query': 'key:"alpha","beta"' };
    expect(resultKeys(params)).toEqual(['alpha', 'beta']);
    expect(countedKeys(params)).toEqual(['alpha', 'beta']);
  });

  it('filter.facets restricts the facet counts but not the results', () => {
    const params = { 'filter.facets': 'key:"alpha","beta"' };
    expect(resultKeys(params)).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    expect(countedKeys(params)).toEqual(['alpha', 'beta']);
  });

  it('combine: results need text, filter.query and filter; counts need text, filter.query and filter.facets', () => {
    const params = {
      'text.en': 'red',
      'filter.query': 'objectTypeProperty.arrayOfIntExample:range(1 to 2)',
      filter: 'key:"beta"',
      'filter.facets': 'key:"alpha"',
    };
    expect(resultKeys(params)).toEqual(['beta']);
    expect(countedKeys(params)).toEqual(['alpha']);
  });

  it('text restricts both the results and the facet counts', () => {
    const params = { 'text.en': 'dog' };
    expect(resultKeys(params)).toEqual(['alpha', 'gamma']);
    expect(countedKeys(params)).toEqual(['alpha', 'gamma']);
  });
});

describe('compileSearchApiPattern: the parameters as the search model', () => {
  it('text: one expression per locale, all its words, each with its edits; filters by role; sort and page', () => {
    const request = compile({
      'text.en': 'Dogs café',
      fuzzy: 'true',
      'filter.query': 'createdAt:range("2026-11-29T07:00:00+01:00" to *)',
      filter: 'key:"alpha","beta"',
      'filter.facets': 'version:1',
      facet: ['key', 'version:range(0 to 2) as v', 'someProperty:exists as s'],
      facetLimit: '3',
      sort: 'objectTypeProperty.arrayOfIntExample desc',
      limit: '5',
      offset: '10',
      withTotal: 'false',
    });
    const field = (path: string) => expect.objectContaining({ path });
    expect(request).toEqual({
      query: {
        kind: 'and',
        of: [
          { kind: 'text', field: undefined, mustMatch: 'all', language: 'en', terms: [{ word: 'dogs', edits: 1, prefix: false }, { word: 'cafe', edits: 1, prefix: false }] },
          // The example: an offset and seconds, compared as the instant 06:00Z.
          { kind: 'range', field: field('createdAt'), gte: Date.parse('2026-11-29T06:00:00Z') },
        ],
      },
      postFilter: { kind: 'exact', field: field('key'), values: ['alpha', 'beta'], caseInsensitive: false },
      facets: [
        { kind: 'distinct', name: 'key', field: field('key'), scope: 'query', filter: expect.objectContaining({ kind: 'exact' }), limit: 3, order: { by: 'count', direction: -1 } },
        { kind: 'ranges', name: 'v', field: field('version'), scope: 'query', filter: expect.objectContaining({ kind: 'exact' }), ranges: [{ from: 0, to: 2 }] },
        { kind: 'count', name: 's', scope: 'query', filter: { kind: 'and', of: [expect.objectContaining({ kind: 'exact' }), { kind: 'exists', field: field('someProperty') }] } },
      ],
      sort: [{ by: 'field', field: field('objectTypeProperty.arrayOfIntExample'), direction: -1, mode: 'max' }],
      page: { limit: 5, offset: 10, withTotal: false },
    });
  });

  it('missing is no value at all; values and ranges are alternatives', () => {
    const { query } = compile({ 'filter.query': ['someProperty:missing', 'version:1, 3, range(5 to *)'] });
    expect(query).toMatchObject({
      kind: 'and',
      of: [
        { kind: 'not', of: [{ kind: 'exists' }] },
        { kind: 'or', of: [{ kind: 'exact', values: [1, 3] }, { kind: 'range', gte: 5 }] },
      ],
    });
  });

  it('compares instants with offsets and either precision as `where` does', () => {
    const at06 = [resource({ key: 'six', createdAt: '2026-11-29T06:08:00.000Z' }), resource({ key: 'five', createdAt: '2026-11-29T05:59:59.999Z' })];
    expect(runSearch({ 'filter.query': 'createdAt:range("2026-11-29T07:00:00+01:00" to *)' }, at06).keys).toEqual(['six']);
    expect(runSearch({ 'filter.query': 'createdAt:range(* to "2026-11-29T00:59:59.999-05:00")' }, at06).keys).toEqual(['five']);
    expect(runSearch({ filter: 'createdAt:"2026-11-29T06:08:00Z"' }, at06).keys).toEqual(['six']);
    expect(runSearch({ sort: 'createdAt asc' }, at06).keys).toEqual(['five', 'six']);
  });

  it('refuses a date-time that is not one', () => {
    expect(compileError({ filter: 'createdAt:"yesterday"' }).message).toBe(
      'Malformed parameter: filter: The field \'createdAt\' holds date-times, so expected a "quoted ISO 8601 date-time" but found "yesterday" at column 11 of \'createdAt:"yesterday"\'.',
    );
  });

  it('accepts documents of any shape without throwing', () => {
    const odd = [{ objectTypeProperty: 'dog' }, { key: 7 }, { objectTypeProperty: { arrayOfIntExample: 'x' } }].map((fields, index) => ({ id: `odd-${index}`, ...fields }));
    expect(runSearch({ 'text.en': 'dog', filter: 'objectTypeProperty.arrayOfIntExample:range(* to *)', facet: 'key' }, odd)).toEqual({
      keys: [],
      // The text restricts the facet's base to the one document holding "dog".
      facets: { key: { type: 'terms', dataType: 'text', missing: 1, total: 0, other: 0, terms: [] } },
    });
  });

  it('ignores document values of the wrong type for a field, though the field exists', () => {
    const odd = { id: 'odd', key: 5, version: 'one', objectTypeProperty: { arrayOfIntExample: ['1', 1] } };
    expect(runSearch({ filter: 'key:exists' }, [odd]).keys).toEqual([5]);
    expect(runSearch({ filter: 'objectTypeProperty.arrayOfIntExample:range(0 to 9)' }, [odd]).keys).toEqual([5]);
    expect(runSearch({ filter: 'version:range(* to *)' }, [odd]).keys).toEqual([]);
  });
});
