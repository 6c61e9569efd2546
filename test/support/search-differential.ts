/**
 * The differential harness: a project of generated resources, written to the table and indexed
 * from its stream as in production, and the means to hold an endpoint's answers to the reference
 * evaluator (test/support/search-reference). A generator of requests (searchApiPattern's
 * parameters, Product Search's bodies, SearchRequests for the engine alone) builds the
 * SearchRequest it means, asks `referenceSearch(project.resources, request, { stems: project.stems })`,
 * and compares. Words come from a small vocabulary with near misses (a swap, a letter more or
 * less), accents and case variants, words that stem together and words that share prefixes, so
 * that terms repeat and every way a term matches a word is put to the test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { inject } from 'vitest';
import { createPostgresPool } from '../../shared/aws/postgres';
import type { Resource } from '../../shared/domain/resource';
import { tokenize } from '../../shared/domain/search';
import { forEachString } from '../../shared/domain/search/document-values';
import { DynamoDbResourceStore } from '../../shared/store/dynamodb/resource-store';
import type { InProcessGateway } from '../integration/in-process';
import { untilSearchable } from '../integration/search-index-caught-up';
import { stemLookup, type StemLookup } from './search-reference';

export const VOCABULARY = [
  ...['dog', 'dgo', 'god', 'doge', 'cat', 'cta', 'act', 'cart', 'bird', 'brid', 'bard', 'red', 'read', 'blue', 'blu', 'ab', 'ba', 'zebra', 'zebras'],
  // Accents and case: each folds to another's word.
  ...['über', 'uber', 'ÜBER', 'café', 'CAFE', 'Cafe\u0301', 'naïve', 'NAIVE'],
  // Stems: in English these stem together, some also in other languages.
  ...['dogs', 'fish', 'fishes', 'fished', 'run', 'runs', 'running', 'house', 'houses', 'housing', 'connect', 'connection', 'connected'],
  // Prefixes: search as you type.
  ...['lamp', 'lamps', 'lantern', 'lanterns', 'lan'],
];
export const LOCALES = ['en', 'en-GB', 'de', 'fr', 'ja'];
/** Texts longer than the index's prefix of a text (200 characters), alike in their first 240. */
export const LONG_TEXTS = ['lantern '.repeat(30) + 'alpha', 'lantern '.repeat(30) + 'beta'];
/** When the generated resources were created: 37 s apart (and a few milliseconds), so that instants order them. */
export const CREATED_FROM = Date.parse('2026-11-29T06:00:00.000Z');

const word = fc.constantFrom(...VOCABULARY);
const phrase = fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' '));
const draft = fc.record(
  {
    key: fc.tuple(fc.constantFrom(...VOCABULARY.filter((entry) => /^[a-z]+$/i.test(entry))), fc.nat(999)).map(([text, n]) => `${text}-${n}`),
    objectTypeProperty: fc.record(
      {
        arrayOfIntExample: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 3 }),
        arrayOfFloatExample: fc.integer({ min: -4, max: 4 }).map((half) => [half / 2]),
        arrayOfStringExample: fc.array(fc.oneof({ arbitrary: phrase, weight: 9 }, { arbitrary: fc.constantFrom(...LONG_TEXTS), weight: 1 }), { maxLength: 3 }),
        arrayOfObjectType: fc.array(
          fc.record({ integerExample: fc.integer({ min: 0, max: 20 }), integerExampleInt32: fc.integer({ min: -3, max: 3 }) }, { requiredKeys: ['integerExample'] }),
          { maxLength: 2 },
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['objectTypeProperty'] },
);

export interface SearchProject {
  key: string;
  /** The live resources, as the table holds them. */
  resources: Resource[];
  /** The stems of every word they hold and of the vocabulary (ts_lexize of the local PostgreSQL). */
  stems: StemLookup;
}

/**
 * `size` generated resources in `project` (one of global-setup.ts's DEV_CLIENT.projectKeys), every
 * tenth deleted again (the index keeps a marker, a search never sees it); resolves once a search
 * counts the live ones. Call it once `startInProcessGateway` has set the stack's environment.
 */
export async function seedSearchProject(gateway: InProcessGateway, project: string, seed: number, size = 160): Promise<SearchProject> {
  let created = 0;
  const clock = () => new Date(CREATED_FROM + created * 37_000 + (created % 7) * 3).toISOString();
  const store = new DynamoDbResourceStore((await import('../../shared/composition-root')).dynamoDb(), process.env.TABLE_NAME!, clock);
  const keys = new Set<string>();
  const resources: Resource[] = [];
  for (const one of fc.sample(draft, { numRuns: size, seed })) {
    // Keys are unique in a project: a repeated one is left out.
    const key = one.key !== undefined && !keys.has(one.key) ? one.key : undefined;
    if (key) keys.add(key);
    resources.push(await store.create(project, { ...(key ? { key } : {}), objectTypeProperty: one.objectTypeProperty }));
    created++;
  }
  const deleted = new Set(resources.filter((_, index) => index % 10 === 0).map((resource) => resource.id));
  for (const id of deleted) await store.delete(project, id);
  const live = resources.filter((resource) => !deleted.has(resource.id));
  await untilSearchable(async () => JSON.parse((await gateway.send('GET', `/${project}/resource/searchApiPattern?limit=1`)).answer.body as string).total, live.length, 60_000);
  const words = new Set(VOCABULARY.flatMap(tokenize));
  for (const resource of live) forEachString(resource, (text) => tokenize(text).forEach((token) => words.add(token)));
  const pool = searchDatabase();
  try {
    return { key: project, resources: live, stems: await stemLookup(pool, words) };
  } finally {
    await pool.end();
  }
}

/** A pool on the local stack's search database (end it when done). */
export function searchDatabase() {
  const { searchDatabaseUrl } = JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8')) as { searchDatabaseUrl: string };
  return createPostgresPool({ url: searchDatabaseUrl }, 'search');
}

/** `at` as ISO 8601 in another zone (`+01:00`, `-05:30`, `Z`), to milliseconds or whole seconds (then rounded down). */
export function instantText(at: number, offsetMinutes: number, milliseconds: boolean): string {
  const shifted = new Date(at + offsetMinutes * 60_000).toISOString().slice(0, milliseconds ? 23 : 19);
  if (offsetMinutes === 0) return `${shifted}Z`;
  const sign = offsetMinutes > 0 ? '+' : '-';
  const minutes = Math.abs(offsetMinutes);
  return `${shifted}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
