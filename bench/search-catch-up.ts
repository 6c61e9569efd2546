import autocannon from 'autocannon';
import type { LocalStack } from '../local/stack';
import { searchPool } from '../shared/composition-root';
import { corpusResource } from './search-corpus';

/** The project the catch-up part writes in, apart from every other part's. */
export const CATCH_UP_PROJECT = 'bench-catch-up';
const RESOURCES = Number(process.env.SEARCH_CATCH_UP_RESOURCES ?? 100_000);
/** Enough concurrent requests to keep the API busy on 2 cores (more only queue). */
const CONNECTIONS = 16;
const SAMPLE_EVERY_MS = 250;
/** The index must hold every resource this soon after the last create: search stays fresh through a bulk load. */
export const CAUGHT_UP_GOAL_MS = 10_000;
const GIVE_UP_MS = 10 * 60_000;

/**
 * Whether the search index keeps up with a bulk load: RESOURCES creates of corpus resources
 * (bench/search-corpus.ts, each with its key) through the API, as fast as it takes them, while
 * the index's count of the project is sampled; then how long after the last create the index
 * held them all. The stream feed runs in the API's process, as in `npm start`.
 */
export async function searchCatchUp(stack: LocalStack, token: string) {
  const count = async () =>
    Number((await searchPool().query<{ n: string }>('SELECT count(*) AS n FROM search_resources WHERE project_key = $1 AND NOT deleted', [CATCH_UP_PROJECT])).rows[0]!.n);
  const samples: { atMs: number; indexed: number }[] = [];
  const started = performance.now();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      samples.push({ atMs: performance.now() - started, indexed: await count() });
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  })();

  let next = 0;
  const draft = () => {
    const { key, objectTypeProperty } = corpusResource(next++, RESOURCES);
    return JSON.stringify({ key, objectTypeProperty });
  };
  const created = await autocannon({
    url: stack.url,
    connections: CONNECTIONS,
    amount: RESOURCES,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [{ method: 'POST', path: `/${CATCH_UP_PROJECT}/resource`, setupRequest: (request) => ({ ...request, body: draft() }) }],
  });
  const writtenMs = performance.now() - started;
  const indexedAtLastCreate = await count();
  let indexed = indexedAtLastCreate;
  while (indexed < RESOURCES && performance.now() - started - writtenMs < GIVE_UP_MS) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS / 5));
    indexed = await count();
  }
  const caughtUpMs = performance.now() - started - writtenMs;
  sampling = false;
  await sampler;

  const perSecond = (amount: number, ms: number) => Math.round((amount / ms) * 1000);
  return {
    project: CATCH_UP_PROJECT,
    method:
      `${RESOURCES} creates through the API (autocannon, ${CONNECTIONS} connections, as fast as it answers), the index's count of the project ` +
      `read every ${SAMPLE_EVERY_MS} ms; caught up: the index holds every resource created`,
    resources: RESOURCES,
    created: { ms: Math.round(writtenMs), perSecond: perSecond(created.requests.total, writtenMs), non2xx: created.non2xx, errors: created.errors },
    indexedWhileWriting: { perSecond: perSecond(indexedAtLastCreate, writtenMs), atLastCreate: indexedAtLastCreate },
    caughtUp: indexed >= RESOURCES ? { afterLastCreateMs: Math.round(caughtUpMs), goalMs: CAUGHT_UP_GOAL_MS } : { notWithinMs: GIVE_UP_MS, indexed },
    samples: samples.filter((_, index) => index % 20 === 0),
  };
}
