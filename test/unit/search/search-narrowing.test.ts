import { describe, expect, it } from 'vitest';
import { resourceJsonSchema } from '../../../shared/domain/resource-fields';
import { compileSearch } from '../../../shared/domain/search';

/** The narrowing of a search whose parameters are these (repeated names kept). */
const narrowingOf = (...parameters: [string, string][]) => {
  const params = new Map<string, string[]>();
  for (const [name, value] of parameters) params.set(name, [...(params.get(name) ?? []), value]);
  return compileSearch(params, resourceJsonSchema()).narrowing;
};
const filterQuery = (expression: string): [string, string] => ['filter.query', expression];
const unbounded = { id: {}, createdAt: {}, lastModifiedAt: {} };
const at = (text: string) => Date.parse(text);

describe('what filter.query tells the store (search-narrowing.ts)', () => {
  it('names ids and keys; expressions hold together, so their names intersect', () => {
    const [a, b] = ['0190163d-8694-739b-aea5-966c26f8ad91', '0190163d-8694-739b-aea5-966c26f8ad92'];
    expect(narrowingOf(filterQuery(`id:"${a}","${b}"`))).toEqual({ ...unbounded, ids: [a, b] });
    expect(narrowingOf(filterQuery('key:"k1","k2","k3"'), filterQuery('key:"k2","k3","k4"'))).toEqual({ ...unbounded, keys: ['k2', 'k3'] });
  });

  it('drops named ids and keys that cannot exist (not of their pattern): none left names no candidate', () => {
    const long = 'a'.repeat(1100);
    expect(narrowingOf(filterQuery(`id:"${long}"`))).toEqual({ ...unbounded, ids: [] });
    expect(narrowingOf(filterQuery(`key:"${long}","k1"`))).toEqual({ ...unbounded, keys: ['k1'] });
  });

  it('bounds ids by the hull of their ranges and terms, an open end staying open', () => {
    expect(narrowingOf(filterQuery('id:range("b" to "d")'))).toEqual({ ...unbounded, id: { from: 'b', to: 'd' } });
    expect(narrowingOf(filterQuery('id:range("c" to "d"),"a"'))).toEqual({ ...unbounded, id: { from: 'a', to: 'd' } });
    expect(narrowingOf(filterQuery('id:range("c" to *)'))).toEqual({ ...unbounded, id: { from: 'c' } });
    expect(narrowingOf(filterQuery('id:range("c" to *),range(* to "a")'))).toEqual(unbounded);
  });

  it('bounds createdAt and lastModifiedAt by instants written as stored, or by dates alone (midnight UTC)', () => {
    expect(narrowingOf(filterQuery('createdAt:range("2026-11-01T10:00:00.000Z" to "2026-11-02")'))).toEqual({
      ...unbounded,
      createdAt: { from: at('2026-11-01T10:00:00.000Z'), to: at('2026-11-02T00:00:00.000Z') },
    });
    expect(narrowingOf(filterQuery('lastModifiedAt:range("2026-11-01" to *)'))).toEqual({ ...unbounded, lastModifiedAt: { from: at('2026-11-01T00:00:00.000Z') } });
  });

  it('tightens bounds given by several expressions', () => {
    const narrowing = narrowingOf(filterQuery('createdAt:range("2026-01-01" to "2026-12-31")'), filterQuery('createdAt:range("2026-06-01" to *)'));
    expect(narrowing.createdAt).toEqual({ from: at('2026-06-01T00:00:00.000Z'), to: at('2026-12-31T00:00:00.000Z') });
  });

  it('takes no bound from a text whose order is not the stored instants\' (other forms, impossible dates)', () => {
    // "2026-11-01T05:00:00-05:00" is 10:00 UTC, yet the text of 06:00 UTC sorts above it: no bound is safe.
    for (const text of ['2026-11-01T05:00:00-05:00', '2026-11-01T10:00:00Z', '2026-02-30', '2026-11', 'yesterday']) {
      expect(narrowingOf(filterQuery(`createdAt:range("${text}" to *)`))).toEqual(unbounded);
    }
  });

  it('narrows by filter.query only: filter and filter.facets restrict one side, and exists/missing name nothing', () => {
    expect(narrowingOf(['filter', 'id:"a"'], ['filter.facets', 'createdAt:range("2026-11-01" to *)'])).toEqual(unbounded);
    expect(narrowingOf(filterQuery('key:exists'), filterQuery('objectTypeProperty.arrayOfIntExample:range(1 to 5)'))).toEqual(unbounded);
  });
});
