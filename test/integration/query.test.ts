import { beforeAll, describe, expect, it } from 'vitest';
import { call, draftExample, tokenFor } from './api-client';

/**
 * Queries over a project of their own, seeded with resources whose fields make predicates,
 * sorts and facets easy to check by hand.
 */
// A project of its own: other suites write to demo and other.
const project = 'queries';
const seeded: any[] = [];

const objectTypeProperty = (index: number) => ({
  ...draftExample.objectTypeProperty,
  arrayOfIntExample: [index, index + 100],
  arrayOfFloatExample: [index / 10],
  arrayOfStringExample: [`animal-${index}`, index % 2 === 0 ? 'dog' : 'cat'],
  arrayOfObjectType: [{ integerExample: index * 100, integerExampleInt32: index }],
});

beforeAll(async () => {
  const token = await tokenFor();
  for (let index = 1; index <= 12; index++) {
    const answer = await call('POST', `/${project}/resource`, {
      token,
      json: { key: `q-${String(index).padStart(2, '0')}`, objectTypeProperty: objectTypeProperty(index) },
    });
    seeded.push(answer.body);
  }
});

const get = async (path: string, token?: string) => call('GET', `/${project}/resource${path}`, { token: token ?? (await tokenFor()) });
const ids = (answer: { body: any }) => answer.body.results.map((resource: any) => resource.id);
const sortedIds = () => seeded.map((resource) => resource.id).sort();

describe('paged query (GET /{projectKey}/resource and …/sorted-query-parameters)', () => {
  for (const path of ['', '/sorted-query-parameters']) {
    it(`${path || '/'}: answers {limit, offset, count, total, results} in id order by default`, async () => {
      const answer = await get(`${path}?limit=5`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ limit: 5, offset: 0, count: 5, total: 12 });
      expect(ids(answer)).toEqual(sortedIds().slice(0, 5));
    });
  }

  it('filters with where predicates, AND-ing repeated ones', async () => {
    const answer = await get(
      `/sorted-query-parameters?where=${encodeURIComponent('objectTypeProperty(arrayOfObjectType(integerExample > 500))')}&where=${encodeURIComponent('key != "q-12"')}`,
    );
    expect(answer.body.results.map((resource: any) => resource.key).sort()).toEqual(['q-06', 'q-07', 'q-08', 'q-09', 'q-10', 'q-11']);
    expect(answer.body.total).toBe(6);
  });

  it('supports contains any, in, or/and precedence and input variables', async () => {
    const where = encodeURIComponent('objectTypeProperty(arrayOfIntExample contains any (:wanted)) or key = "q-01" and version = 1');
    const answer = await get(`/sorted-query-parameters?where=${where}&var.wanted=3&var.wanted=104&sort=key asc`);
    expect(answer.body.results.map((resource: any) => resource.key)).toEqual(['q-01', 'q-03', 'q-04']);
  });

  it('sorts by repeated sort parameters, in order', async () => {
    const answer = await get('/sorted-query-parameters?sort=objectTypeProperty.arrayOfFloatExample desc&limit=3');
    expect(answer.body.results.map((resource: any) => resource.key)).toEqual(['q-12', 'q-11', 'q-10']);
    const byKey = await get('?sort=key desc&sort=id asc&offset=10');
    expect(byKey.body).toMatchObject({ offset: 10, count: 2, total: 12 });
    expect(byKey.body.results.map((resource: any) => resource.key)).toEqual(['q-02', 'q-01']);
  });

  it('pages like the commercetools SDK process(): sort=id asc, withTotal=false, where id > last', async () => {
    const seen: string[] = [];
    let last: string | undefined;
    for (;;) {
      const where = last ? `&where=${encodeURIComponent(`id > "${last}"`)}` : '';
      const answer = await get(`?sort=id asc&withTotal=false&limit=5${where}`);
      expect(answer.body.total).toBeUndefined();
      seen.push(...ids(answer));
      if (answer.body.count < 5) break;
      last = ids(answer).at(-1);
    }
    expect(seen).toEqual(sortedIds());
  });

  it('refuses bad predicates with 400 InvalidInput saying where', async () => {
    const syntax = await get(`/sorted-query-parameters?where=${encodeURIComponent('key = "a" and (')}`);
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors[0]).toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/column \d+/) });
    const unknown = await get(`?where=${encodeURIComponent('colour = "red"')}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].message).toContain('colour');
    const badSort = await get('?sort=key sideways');
    expect(badSort.status).toBe(400);
  });

  it('refuses out-of-range and ill-typed paging and declared parameters, naming them', async () => {
    for (const [query, parameter] of [
      ['limit=501', 'limit'],
      ['limit=-1', 'limit'],
      ['offset=10001', 'offset'],
      ['limit=abc', 'limit'],
      ['withTotal=yes', 'withTotal'],
      ['floatParameter=abc', 'floatParameter'],
      ['integerParameter=1.5', 'integerParameter'],
      ['withMarkdownDescription=x', 'withMarkdownDescription'],
      ['objectParameter=notjson', 'objectParameter'],
      ['unionParameter=tomorrow', 'unionParameter'],
      [`unionParameter=${encodeURIComponent('{"objectTypeProperty":{"nope":1}}')}`, 'unionParameter'],
      [`unionParameter=${encodeURIComponent('{"objectTypeProperty":{"arrayOfFloatExample":[1,2]}}')}`, 'unionParameter'],
      [`unionParameter=${encodeURIComponent('{"version":1}')}`, 'unionParameter'],
    ]) {
      const answer = await get(`?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors[0]).toMatchObject({ code: 'InvalidInput', message: expect.stringContaining(`'${parameter}'`) });
    }
  });

  it('accepts well-typed declared parameters, repeated where declared repeatable', async () => {
    const union = [
      'unionParameter=1.5',
      'unionParameter=2024-01-02T03:04:05Z',
      `unionParameter=${encodeURIComponent(JSON.stringify({ version: 1, objectTypeProperty: draftExample.objectTypeProperty }))}`,
      // Shaped like ObjectTestType; only a stored resource must also hold unique values (docs/api.md).
      `unionParameter=${encodeURIComponent('{"objectTypeProperty":{"arrayOfUniqueIntExample":[1,1]}}')}`,
    ];
    for (const parameter of union) expect((await get(`?${parameter}&limit=1`)).status, parameter).toBe(200);
    const answer = await get('?stringParameter=a,b&floatParameter=1.5&integerParameter=3&arrayOfString=a&arrayOfString=b&objectParameter=%7B%7D&expand=x');
    expect(answer.status).toBe(200);
  });

  it('a named id or key that cannot exist (1100 characters, past the store\'s key size) matches nothing: 200, not 500', async () => {
    const long = 'a'.repeat(1100);
    for (const where of [`id = "${long}"`, `key in ("${long}")`, `key in ("${long}", "q-03") and version = 1`, `id in ("${long}", "${seeded[0].id}")`]) {
      const answer = await get(`?where=${encodeURIComponent(where)}`);
      expect(answer.status, where).toBe(200);
      const expected = where.includes('q-03') ? ['q-03'] : where.includes(seeded[0].id) ? [seeded[0].key] : [];
      expect(answer.body.results.map((resource: any) => resource.key), where).toEqual(expected);
    }
    // Not a named candidate: every resource's id differs from it.
    expect((await get(`?where=${encodeURIComponent(`id != "${long}"`)}&limit=1`)).body.total).toBe(12);
    expect((await get(`?where=${encodeURIComponent(`not(key = "${long}")`)}&limit=1`)).body.total).toBe(12);
  });

  it('conditions whose id or creation bounds exclude each other match nothing: 200, not 500', async () => {
    for (const where of [
      'id >= "z" and id <= "a"',
      'createdAt >= "2030-01-01T00:00:00.000Z" and createdAt <= "2020-01-01T00:00:00.000Z"',
      'createdAt > "2026-11-26T00:00:00.001Z" and createdAt < "2026-11-26T00:00:00.000Z"',
      'id >= "01b" and createdAt <= "2020-01-01T00:00:00.000Z"',
      // In order for JavaScript (UTF-16), reversed for DynamoDB (UTF-8 bytes).
      'id >= "😀" and id <= "＀"',
    ]) {
      for (const sort of ['', `&sort=${encodeURIComponent('createdAt desc')}`]) {
        const answer = await get(`?where=${encodeURIComponent(where)}&withTotal=true${sort}`);
        expect(answer.status, where).toBe(200);
        expect(answer.body, where).toMatchObject({ count: 0, total: 0, results: [] });
      }
      // A deep page passes over the range first.
      expect((await get(`?where=${encodeURIComponent(where)}&offset=50`)).body.results, where).toEqual([]);
    }
  });

  it('a view-only token may query; a token of another project may not', async () => {
    expect((await get('?limit=1', await tokenFor(`view_test:${project}`))).status).toBe(200);
    expect((await get('?limit=1', await tokenFor('view_test:demo'))).status).toBe(403);
  });
});

describe('HEAD /{projectKey}/resource', () => {
  const head = async (query: string) => call('HEAD', `/${project}/resource${query}`, { token: await tokenFor() });

  it('is 200 when a resource matches and 404 when none does, without a body', async () => {
    const found = await head(`?where=${encodeURIComponent('key = "q-03"')}`);
    expect(found.status).toBe(200);
    expect(found.body).toBeUndefined();
    const missing = await head(`?where=${encodeURIComponent('key = "nope"')}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toBeUndefined();
  });

  it('is 404 for a named id or key that cannot exist (1100 characters), not 500', async () => {
    const long = 'a'.repeat(1100);
    expect((await head(`?where=${encodeURIComponent(`id = "${long}"`)}`)).status).toBe(404);
    expect((await head(`?where=${encodeURIComponent(`key in ("${long}")`)}`)).status).toBe(404);
    expect((await head(`?where=${encodeURIComponent(`key in ("${long}", "q-03")`)}`)).status).toBe(200);
  });

  it('is 404 for conditions that exclude each other, not 500', async () => {
    expect((await head(`?where=${encodeURIComponent('id >= "z" and id <= "a"')}`)).status).toBe(404);
  });

  it('refuses a bad predicate with 400 and no body', async () => {
    expect((await head('?where=%28%28')).status).toBe(400);
  });

  it('refuses a sort GET would refuse (the parameters of GET /{projectKey}/resource), and takes a good one', async () => {
    expect((await head(`?sort=${encodeURIComponent('nope asc')}`)).status).toBe(400);
    expect((await head(`?sort=createdAt`)).status).toBe(400);
    expect((await head(`?where=${encodeURIComponent('key = "q-03"')}&sort=${encodeURIComponent('createdAt desc')}`)).status).toBe(200);
  });
});

describe('search (GET /{projectKey}/resource/searchApiPattern)', () => {
  const search = (query: string) => get(`/searchApiPattern?${query}`);

  it('finds resources by text, exactly or fuzzily within the default level', async () => {
    const exact = await search('text.en=dog&limit=50');
    expect(exact.status).toBe(200);
    expect(exact.body.total).toBe(6);
    // A 3-letter term allows one edit by default (a swap of neighbours counts as one).
    expect((await search('text.en=dgo')).body.total).toBe(0);
    expect((await search('text.en=dgo&fuzzy=true')).body.total).toBe(6);
    expect((await search('text.en=dxx&fuzzy=true')).body.total).toBe(0);
    expect((await search('text.en=dox&fuzzy=true&fuzzyLevel=0')).body.total).toBe(0);
    // Every term must match: "animal-3" is the terms "animal" and "3".
    const both = await search('text.en=animal-3&limit=50');
    expect(both.body.results.map((resource: any) => resource.key)).toEqual(['q-03']);
  });

  it('refuses a fuzzyLevel above the platform default with 400 InvalidInput', async () => {
    const answer = await search('text.en=dog&fuzzy=true&fuzzyLevel=2');
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].code).toBe('InvalidInput');
  });

  it('filters and counts facets', async () => {
    const answer = await search(
      `filter.query=${encodeURIComponent('objectTypeProperty.arrayOfObjectType.integerExample:range(0 to 600)')}&facet=${encodeURIComponent('objectTypeProperty.arrayOfStringExample')}&limit=50`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(6);
    const terms = answer.body.facets['objectTypeProperty.arrayOfStringExample'].terms;
    expect(terms).toEqual(expect.arrayContaining([{ term: 'dog', count: 3 }, { term: 'cat', count: 3 }]));
  });

  it('a filter.query naming an id or key that cannot exist (1100 characters) matches nothing: 200, not 500', async () => {
    const long = 'a'.repeat(1100);
    for (const field of ['id', 'key']) {
      const answer = await search(`filter.query=${encodeURIComponent(`${field}:"${long}"`)}`);
      expect(answer.status, field).toBe(200);
      expect(answer.body).toMatchObject({ total: 0, results: [] });
    }
    const one = await search(`filter.query=${encodeURIComponent(`key:"${long}","q-03"`)}`);
    expect(one.body.results.map((resource: any) => resource.key)).toEqual(['q-03']);
  });

  it('filter.query ranges that exclude each other match nothing: 200, not 500', async () => {
    for (const [first, second] of [
      ['id:range("m" to *)', 'id:range(* to "a")'],
      ['createdAt:range("2030-01-01T00:00:00.000Z" to *)', 'createdAt:range(* to "2020-01-01T00:00:00.000Z")'],
    ]) {
      const answer = await search(`filter.query=${encodeURIComponent(first!)}&filter.query=${encodeURIComponent(second!)}`);
      expect(answer.status, first).toBe(200);
      expect(answer.body, first).toMatchObject({ total: 0, results: [] });
    }
    const astral = await search(`filter.query=${encodeURIComponent('id:range("😀" to "＀")')}`);
    expect(astral.status).toBe(200);
    expect(astral.body).toMatchObject({ total: 0, results: [] });
  });

  it('refuses unknown filter fields with 400', async () => {
    expect((await search('filter=nope:1')).status).toBe(400);
  });
});
