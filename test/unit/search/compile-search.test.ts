import { describe, expect, it } from 'vitest';
import { compile, resource, runSearch } from './fixtures';

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

describe('compileSearch', () => {
  it('answers each question about the document asked, whatever the order of asking', () => {
    const search = compile({ 'text.en': 'dog', filter: 'key:"alpha"', 'filter.facets': 'key:"gamma"' });
    expect(search.matchesResults(alpha)).toBe(true);
    expect(search.matchesResults(gamma)).toBe(false);
    expect(search.matchesFacetBase(gamma)).toBe(true);
    expect(search.matchesFacetBase(alpha)).toBe(false);
    expect(search.matchesResults(alpha)).toBe(true);
    expect(search.matchesFacetBase(beta)).toBe(false);
    expect(search.matchesResults(beta)).toBe(false);
  });

  it('accepts documents of any shape without throwing', () => {
    const search = compile({ 'text.en': 'dog', filter: 'objectTypeProperty.arrayOfIntExample:1', facet: 'key' });
    for (const doc of [null, 42, 'dog', [], {}, { objectTypeProperty: 'dog' }, { key: 7 }]) {
      expect(search.matchesResults(doc)).toBe(false);
      expect(() => search.facets?.add(doc)).not.toThrow();
    }
    expect(search.facets?.result()['key']).toMatchObject({ missing: 7, total: 0 });
  });

  it('ignores document values of the wrong type for a field', () => {
    const odd = { key: 5, version: 'one', objectTypeProperty: { arrayOfIntExample: ['1', 1] } };
    expect(compile({ filter: 'key:exists' }).matchesResults(odd)).toBe(true);
    expect(compile({ filter: 'objectTypeProperty.arrayOfIntExample:range(0 to 9)' }).matchesResults(odd)).toBe(true);
    expect(compile({ filter: 'version:range(* to *)' }).matchesResults(odd)).toBe(false);
  });
});
