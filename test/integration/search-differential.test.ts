import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryParameters } from '../../shared/domain/query-parameters';
import { resourceJsonSchema } from '../../shared/domain/resource-fields';
import {
  compileSearchApiPattern,
  defaultFuzzyLevel,
  facetResultOf,
  FieldCatalog,
  SearchError,
  tokenize,
  type FacetRequest,
  type Field,
  type SearchExpression,
  type SearchRequest,
  type SearchSort,
  type TextExpression,
  scoringTexts,
} from '../../shared/domain/search';
import { PostgresSearchIndex } from '../../shared/store/postgres/search-index';
import { instantText, LOCALES, LONG_TEXTS, searchDatabase, seedSearchProject, VOCABULARY, type SearchProject } from '../support/search-differential';
import { referenceSearch } from '../support/search-reference';
import { startInProcessGateway, type InProcessGateway } from './in-process';

/**
 * The search engine held to the reference evaluator (test/support/search-reference) over generated
 * resources (test/support/search-differential.ts): generated searchApiPattern requests over HTTP
 * — text in several locales (stemmed or folded), exact and fuzzy, filters of each role, ranges of
 * numbers, texts and instants (offsets, seconds or milliseconds), exists and missing, bounded term,
 * range and filter facets, sorts and pages — and generated SearchRequests straight to the engine,
 * for what searchApiPattern cannot say (compounds, prefixes, wildcards, fields' full text, every
 * facet and sort mode). Same status, total, ids (relevance included) and facets.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_128);
const NUMBER_FIELDS = ['version', 'objectTypeProperty.arrayOfIntExample', 'objectTypeProperty.arrayOfObjectType.integerExample', 'objectTypeProperty.arrayOfObjectType.integerExampleInt32', 'objectTypeProperty.arrayOfFloatExample'];
const TEXT_FIELDS = ['key', 'objectTypeProperty.arrayOfStringExample'];
const DATETIME_FIELDS = ['createdAt', 'lastModifiedAt'];
const OTHER_FIELDS = ['objectTypeProperty.arrayOfObjectType', 'objectTypeProperty'];
const fields = new FieldCatalog(resourceJsonSchema());
const field = (path: string): Field => fields.lookup(path)!;

let gateway: InProcessGateway;
let project: SearchProject;
let pool: pg.Pool;

beforeAll(async () => {
  gateway = await startInProcessGateway();
  project = await seedSearchProject(gateway, 'search-differential', SEED);
  pool = searchDatabase();
}, 180_000);

afterAll(async () => {
  gateway?.stop();
  await pool?.end();
});

const word = fc.constantFrom(...VOCABULARY);
/** An instant near the resources' own (a few over either end), written in some zone and precision. */
const instant = fc
  .tuple(fc.integer({ min: -3, max: 150 }), fc.integer({ min: -40_000, max: 40_000 }), fc.constantFrom(0, 60, -300, 330), fc.boolean())
  .map(([index, jitter, offset, milliseconds]) => instantText(Date.parse('2026-11-29T06:00:00.000Z') + index * 37_000 + jitter, offset, milliseconds));

describe('GET /{projectKey}/resource/searchApiPattern answers as the reference evaluator', () => {
  const bound = fc.oneof(fc.constant('*'), fc.integer({ min: -2, max: 21 }).map(String));
  const textBound = fc.oneof(fc.constant('*'), word.map((text) => `"${text}"`));
  const instantBound = fc.oneof(fc.constant('*'), instant.map((text) => `"${text}"`));
  const numberValues = fc.array(fc.oneof(fc.integer({ min: -2, max: 21 }).map(String), fc.tuple(bound, bound).map(([from, to]) => `range(${from} to ${to})`)), { minLength: 1, maxLength: 3 });
  const textValues = fc.array(fc.oneof(word.map((text) => `"${text}"`), fc.tuple(textBound, textBound).map(([from, to]) => `range(${from} to ${to})`)), { minLength: 1, maxLength: 2 });
  const instantValues = fc.array(fc.tuple(instantBound, instantBound).map(([from, to]) => `range(${from} to ${to})`), { minLength: 1, maxLength: 2 });
  const presence = fc.constantFrom('exists', 'missing');

  /** `<field>:<condition>`: any field exists or is missing; numbers, texts and instants take values and ranges of their kind. */
  const filterExpression = fc.oneof(
    fc.tuple(fc.constantFrom(...NUMBER_FIELDS), fc.oneof(presence, numberValues.map((values) => values.join(',')))),
    fc.tuple(fc.constantFrom(...TEXT_FIELDS), fc.oneof(presence, textValues.map((values) => values.join(',')))),
    fc.tuple(fc.constantFrom(...DATETIME_FIELDS), fc.oneof(presence, instantValues.map((values) => values.join(',')))),
    fc.tuple(fc.constantFrom(...OTHER_FIELDS), presence),
  ).map(([path, condition]) => `${path}:${condition}`);

  const rangeList = fc.array(fc.tuple(bound, bound), { minLength: 1, maxLength: 3 }).map((ranges) => ranges.map(([from, to]) => `(${from} to ${to})`).join(', '));
  const instantRanges = fc.array(fc.tuple(instantBound, instantBound), { minLength: 1, maxLength: 2 }).map((ranges) => ranges.map(([from, to]) => `(${from} to ${to})`).join(', '));
  const facetExpression = fc.oneof(
    fc.constantFrom(...NUMBER_FIELDS, ...TEXT_FIELDS, ...DATETIME_FIELDS),
    fc.tuple(fc.constantFrom(...NUMBER_FIELDS), rangeList).map(([path, ranges]) => `${path}:range${ranges}`),
    instantRanges.map((ranges) => `createdAt:range${ranges}`),
    filterExpression,
  );

  const searchParams = fc
    .record(
      {
        text: fc.tuple(fc.constantFrom(...LOCALES), fc.array(word, { minLength: 1, maxLength: 2 })),
        fuzzy: fc.boolean(),
        fuzzyLevel: fc.integer({ min: 0, max: 2 }),
        filter: fc.array(filterExpression, { maxLength: 2 }),
        filterQuery: fc.array(filterExpression, { maxLength: 2 }),
        filterFacets: fc.array(filterExpression, { maxLength: 2 }),
        facets: fc.array(facetExpression, { maxLength: 3 }),
        facetLimit: fc.integer({ min: 1, max: 4 }),
        sort: fc.constantFrom('none', 'none', 'id asc', 'id desc', 'key asc', 'createdAt desc', 'lastModifiedAt asc', 'objectTypeProperty.arrayOfIntExample desc', 'objectTypeProperty.arrayOfStringExample asc'),
        limit: fc.integer({ min: 1, max: 60 }),
        offset: fc.integer({ min: 0, max: 40 }),
      },
      { requiredKeys: ['filter', 'filterQuery', 'filterFacets', 'facets', 'limit', 'offset'] },
    )
    .map((generated) => {
      const params: [string, string][] = [];
      if (generated.text !== undefined) params.push([`text.${generated.text[0]}`, generated.text[1].join(' ')]);
      if (generated.fuzzy !== undefined) params.push(['fuzzy', String(generated.fuzzy)]);
      if (generated.fuzzyLevel !== undefined) params.push(['fuzzyLevel', String(generated.fuzzyLevel)]);
      for (const expression of generated.filter) params.push(['filter', expression]);
      for (const expression of generated.filterQuery) params.push(['filter.query', expression]);
      for (const expression of generated.filterFacets) params.push(['filter.facets', expression]);
      generated.facets.forEach((expression, index) => params.push(['facet', `${expression} as f${index}`]));
      if (generated.facetLimit !== undefined) params.push(['facetLimit', String(generated.facetLimit)]);
      if (generated.sort !== undefined && generated.sort !== 'none') params.push(['sort', generated.sort]);
      params.push(['limit', String(generated.limit)], ['offset', String(generated.offset)]);
      return params;
    });

  /** Text alone, unsorted: the page is ordered by relevance. */
  const textSearch = fc
    .record({ locale: fc.constantFrom(...LOCALES), words: fc.array(word, { minLength: 1, maxLength: 2 }), fuzzy: fc.boolean(), limit: fc.integer({ min: 1, max: 60 }) })
    .map(({ locale, words, fuzzy, limit }): [string, string][] => [[`text.${locale}`, words.join(' ')], ['fuzzy', String(fuzzy)], ['limit', String(limit)]]);

  it('same status, total, ids and facets for generated searches', async () => {
    // What the generated searches exercised: a run of refusals or empty answers would prove little.
    const seen = { refused: 0, found: 0, fuzzyFound: 0, stemmedOnly: 0, byScore: 0, facets: 0, leftOut: 0 };
    await fc.assert(
      fc.asyncProperty(fc.oneof({ arbitrary: searchParams, weight: 4 }, { arbitrary: textSearch, weight: 1 }), async (params) => {
        const entries = new Map<string, string[]>();
        for (const [name, value] of params) entries.set(name, [...(entries.get(name) ?? []), value]);
        let request: SearchRequest | undefined;
        try {
          request = compileSearchApiPattern(new QueryParameters(entries), resourceJsonSchema());
        } catch (error) {
          if (!(error instanceof SearchError)) throw error;
        }
        const query = new URLSearchParams(params).toString();
        const observed = await gateway.send('GET', `/${project.key}/resource/searchApiPattern?${query}`);
        const answer = JSON.parse(observed.answer.body as string);
        if (!request) {
          expect(observed.answer.statusCode, query).toBe(400);
          seen.refused++;
          return;
        }
        const expected = referenceSearch(project.resources, request, { stems: project.stems });
        const facets = Object.fromEntries(request.facets.map((facet, index) => [facet.name, facetResultOf(facet, expected.facets[index]!)]));
        expect(observed.answer.statusCode, query).toBe(200);
        expect(answer.total, query).toBe(expected.total);
        expect(answer.results.map((resource: { id: string }) => resource.id), query).toEqual(expected.ids);
        expect(answer.facets, query).toEqual(facets);
        if (expected.total! > 0) seen.found++;
        if (expected.total! > 0 && entries.get('fuzzy')?.[0] === 'true') seen.fuzzyFound++;
        if (expected.total! > referenceSearch(project.resources, request).total!) seen.stemmedOnly++;
        if (request.sort.length === 0 && scoringTexts(request.query).length > 0 && expected.ids.length > 1) seen.byScore++;
        if (request.facets.length > 0) seen.facets++;
        if (Object.values(facets).some((facet) => facet.type === 'terms' && facet.other > 0)) seen.leftOut++;
      }),
      { numRuns: 250, seed: SEED },
    );
    console.log('searchApiPattern differential:', JSON.stringify(seen));
    expect(seen.found).toBeGreaterThan(50);
    expect(seen.fuzzyFound).toBeGreaterThan(10);
    expect(seen.stemmedOnly).toBeGreaterThan(5);
    expect(seen.byScore).toBeGreaterThan(10);
    expect(seen.facets).toBeGreaterThan(50);
    expect(seen.leftOut).toBeGreaterThan(5);
    expect(seen.refused).toBeGreaterThan(0);
  }, 240_000);
});

describe('the engine answers every SearchRequest as the reference evaluator (PostgresSearchIndex)', () => {
  const numberValue = fc.integer({ min: -2, max: 21 });
  const textValue = fc.oneof(word, fc.constantFrom('dog-1', 'cat-77', ...LONG_TEXTS, LONG_TEXTS[0]!.slice(0, 200)));
  const instantValue = instant.map((text) => Date.parse(text));
  const valueOf = (kind: Field['kind']): fc.Arbitrary<number | string> => (kind === 'number' ? numberValue : kind === 'datetime' ? instantValue : textValue);
  const valueField = fc.constantFrom(...NUMBER_FIELDS, ...TEXT_FIELDS, ...DATETIME_FIELDS).map(field);
  const textField = fc.constantFrom(...TEXT_FIELDS).map(field);

  const term = fc.tuple(word, fc.integer({ min: 0, max: 2 }), fc.boolean()).map(([text, edits, prefix]) => {
    const folded = tokenize(text)[0]!;
    return { word: prefix ? folded.slice(0, Math.max(1, folded.length - 2)) : folded, edits: Math.min(edits, defaultFuzzyLevel(folded)), prefix };
  });
  const text: fc.Arbitrary<TextExpression> = fc
    .record({ field: fc.option(textField, { nil: undefined }), terms: fc.array(term, { minLength: 1, maxLength: 3 }), mustMatch: fc.constantFrom('all' as const, 'any' as const), language: fc.option(fc.constantFrom(...LOCALES), { nil: undefined }) })
    .map((generated) => ({ kind: 'text', ...generated }));

  const simple: fc.Arbitrary<SearchExpression> = fc.oneof(
    valueField.chain((at) => fc.record({ kind: fc.constant('exact' as const), field: fc.constant(at), values: fc.array(valueOf(at.kind), { minLength: 1, maxLength: 3 }), caseInsensitive: at.kind === 'text' ? fc.boolean() : fc.constant(false) })),
    valueField.chain((at) =>
      fc.record({ kind: fc.constant('range' as const), field: fc.constant(at), gt: valueOf(at.kind), gte: valueOf(at.kind), lt: valueOf(at.kind), lte: valueOf(at.kind) }, { requiredKeys: ['kind', 'field'] }),
    ),
    fc.record({ kind: fc.constant('exists' as const), field: fc.constantFrom(...NUMBER_FIELDS, ...TEXT_FIELDS, ...OTHER_FIELDS).map(field) }),
    fc.record({ kind: fc.constant('prefix' as const), field: textField, value: fc.oneof(word.map((text) => text.slice(0, 2)), fc.constant(LONG_TEXTS[1]!.slice(0, 230))), caseInsensitive: fc.boolean() }),
    fc.record({ kind: fc.constant('wildcard' as const), field: textField, pattern: fc.constantFrom('d*', '*a*', 'c?t*', '*-?', 'LA*', '%_*', '*'), caseInsensitive: fc.boolean() }),
    text,
  );
  const { expression } = fc.letrec<{ expression: SearchExpression }>((tie) => ({
    expression: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      simple,
      fc.record({ kind: fc.constantFrom('and' as const, 'or' as const, 'not' as const, 'filter' as const), of: fc.array(tie('expression'), { minLength: 1, maxLength: 3 }) }),
    ),
  }));

  const scope = fc.constantFrom('query' as const, 'all' as const);
  const facet: fc.Arbitrary<FacetRequest> = fc.oneof(
    fc.record(
      {
        kind: fc.constant('distinct' as const),
        name: fc.constant('f'),
        field: valueField,
        scope,
        filter: expression,
        limit: fc.integer({ min: 1, max: 6 }),
        order: fc.record({ by: fc.constantFrom('count' as const, 'value' as const), direction: fc.constantFrom(1 as const, -1 as const) }),
        missing: fc.constant('none'),
      },
      { requiredKeys: ['kind', 'name', 'field', 'scope', 'limit', 'order'] },
    ).chain((distinct) =>
      fc.option(fc.array(valueOf(distinct.field.kind), { minLength: 1, maxLength: 4 }), { nil: undefined }).map((includes) => (includes ? { ...distinct, includes } : distinct)),
    ),
    fc
      .record({ kind: fc.constant('ranges' as const), name: fc.constant('f'), field: fc.constantFrom(...NUMBER_FIELDS, ...DATETIME_FIELDS).map(field), scope, filter: expression }, { requiredKeys: ['kind', 'name', 'field', 'scope'] })
      .chain((ranges) =>
        fc
          .array(fc.record({ from: valueOf(ranges.field.kind), to: valueOf(ranges.field.kind) }, { requiredKeys: [] }), { minLength: 1, maxLength: 3 })
          .map((bounds) => ({ ...ranges, ranges: bounds as { from?: number; to?: number }[] })),
      ),
    fc.record({ kind: fc.constant('count' as const), name: fc.constant('f'), scope, filter: expression }, { requiredKeys: ['kind', 'name', 'scope'] }),
    fc.record({ kind: fc.constant('stats' as const), name: fc.constant('f'), field: valueField, scope, filter: expression }, { requiredKeys: ['kind', 'name', 'field', 'scope'] }),
  );
  const sort: fc.Arbitrary<SearchSort> = fc.oneof(
    fc.record({ by: fc.constant('score' as const), direction: fc.constantFrom(1 as const, -1 as const) }),
    fc.record({
      by: fc.constant('field' as const),
      field: fc.constantFrom('id', 'key', 'createdAt', 'objectTypeProperty.arrayOfIntExample', 'objectTypeProperty.arrayOfStringExample', 'objectTypeProperty.arrayOfFloatExample').map(field),
      direction: fc.constantFrom(1 as const, -1 as const),
      mode: fc.constantFrom('min' as const, 'max' as const),
    }),
    fc.record({
      by: fc.constant('field' as const),
      field: fc.constantFrom('objectTypeProperty.arrayOfIntExample', 'objectTypeProperty.arrayOfFloatExample').map(field),
      direction: fc.constantFrom(1 as const, -1 as const),
      mode: fc.constantFrom('avg' as const, 'sum' as const),
    }),
  );
  const request: fc.Arbitrary<SearchRequest> = fc.record({
    query: fc.option(expression, { nil: undefined, freq: 4 }),
    postFilter: fc.option(expression, { nil: undefined }),
    facets: fc.array(facet, { maxLength: 2 }),
    sort: fc.array(sort, { maxLength: 2 }),
    page: fc.record({ limit: fc.integer({ min: 1, max: 40 }), offset: fc.integer({ min: 0, max: 20 }), withTotal: fc.boolean() }),
  });

  it('same total, ids and facet counts', async () => {
    const index = new PostgresSearchIndex(pool);
    const seen = { found: 0, facets: 0 };
    await fc.assert(
      fc.asyncProperty(request, async (generated) => {
        const expected = referenceSearch(project.resources, generated, { stems: project.stems });
        const observed = await index.search(project.key, generated);
        const context = JSON.stringify(generated);
        expect(observed.total, context).toBe(expected.total);
        expect(observed.ids, context).toEqual(expected.ids);
        expect(observed.facets, context).toEqual(expected.facets);
        if (expected.ids.length > 0) seen.found++;
        if (generated.facets.length > 0) seen.facets++;
      }),
      { numRuns: 400, seed: SEED },
    );
    console.log('engine differential:', JSON.stringify(seen));
    expect(seen.found).toBeGreaterThan(100);
    expect(seen.facets).toBeGreaterThan(100);
  }, 240_000);
});
