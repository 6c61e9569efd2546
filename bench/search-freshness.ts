import { randomInt } from 'node:crypto';
import type { LocalStack } from '../local/stack';
import { percentiles } from './measure';

/** The project the freshness part writes in, apart from every other part's. */
export const FRESHNESS_PROJECT = 'bench-freshness';
const CHANGES = Number(process.env.SEARCH_FRESHNESS_CHANGES ?? 20);
const POLL_EVERY_MS = 10;
/** A change not searchable after this long is counted as such, not waited for. */
const GIVE_UP_MS = 30_000;

/**
 * How soon a write is searchable: through the API, CHANGES resources are created, then updated,
 * then deleted, one at a time, and after each write a search is repeated (every POLL_EVERY_MS)
 * until it shows the change — a create: the resource found by its unique word (its key); an update
 * (a new key): found by its new word and no longer by its old; a delete: no longer counted. The time from the write's answer to the
 * first search that shows it, p50 and p95 per kind of change.
 */
export async function searchFreshness(stack: LocalStack, token: string) {
  const collection = `${stack.url}/${FRESHNESS_PROJECT}/resource`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${collection}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const idsFoundBy = async (word: string) => {
    const { results } = (await call('GET', `/searchApiPattern?text.en=${word}&limit=20&withTotal=false`)) as { results: { id: string }[] };
    return results.map((resource) => resource.id);
  };
  // The page's bodies come from the table, which leaves a deleted resource out at once: the total is the index's.
  const totalFoundBy = async (word: string) => ((await call('GET', `/searchApiPattern?text.en=${word}&limit=1`)) as { total: number }).total;
  const untilSearchShows = async (shows: () => Promise<boolean>) => {
    const started = performance.now();
    while (!(await shows())) {
      if (performance.now() - started > GIVE_UP_MS) return Number.POSITIVE_INFINITY;
      await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
    }
    return performance.now() - started;
  };

  const created: { id: string; version: number; word: string }[] = [];
  const createMs: number[] = [];
  for (let index = 0; index < CHANGES; index++) {
    const word = uniqueWord();
    const { id, version } = (await call('POST', '', { key: word, objectTypeProperty: { arrayOfIntExample: [index] } })) as { id: string; version: number };
    createMs.push(await untilSearchShows(async () => (await idsFoundBy(word)).includes(id)));
    created.push({ id, version, word });
  }
  const updateMs: number[] = [];
  for (const resource of created) {
    const word = uniqueWord();
    const { version } = (await call('POST', `/${resource.id}`, { version: resource.version, actions: [{ action: 'setKey', key: word }] })) as { version: number };
    updateMs.push(await untilSearchShows(async () => (await idsFoundBy(word)).includes(resource.id) && !(await idsFoundBy(resource.word)).includes(resource.id)));
    Object.assign(resource, { version, word });
  }
  const deleteMs: number[] = [];
  for (const resource of created) {
    await call('DELETE', `/${resource.id}?version=${resource.version}`);
    deleteMs.push(await untilSearchShows(async () => (await totalFoundBy(resource.word)) === 0));
  }
  const figures = (durations: number[]) => {
    const shown = durations.filter(Number.isFinite);
    return { ...(shown.length ? percentiles(shown) : { runs: 0 }), notShownWithin: { ms: GIVE_UP_MS, changes: durations.length - shown.length } };
  };
  return {
    project: FRESHNESS_PROJECT,
    method:
      `${CHANGES} creates, then ${CHANGES} updates, then ${CHANGES} deletes through the API, one at a time; after each, the same search every ${POLL_EVERY_MS} ms ` +
      'until it shows the change (create: found by its unique word, its key; update, a new key: found by its new word, not by its old; delete: counted no more); ms from the write\'s answer',
    create: figures(createMs),
    update: figures(updateMs),
    delete: figures(deleteMs),
  };
}

/** Twelve random letters: a word no other resource carries. */
const uniqueWord = () => Array.from({ length: 12 }, () => String.fromCharCode(97 + randomInt(26))).join('');
