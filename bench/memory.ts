import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, type InvocationContext } from './function-invocations';
import { buildFunction, recordEvent, runInFreshProcess } from './lambda-process';
import { node22 } from './node22';

/** The project the large resources are seeded in, apart from every other part's. */
export const MEMORY_PROJECT = 'bench-memory';
const RESOURCES = 500;
/** 62 strings of 4,000 random base64 characters: ≈ 250 KB of JSON each, near DynamoDB's 400 KB item limit, and as little compressible as real data gets. */
const STRINGS = 62;

/** The heap a 256 MB Lambda function's Node.js gets (the runtime's flags for that memory size). */
export const LAMBDA_256_FLAGS = ['--max-old-space-size=230', '--max-semi-space-size=12'];

/**
 * The worst pages: 500 resources of ≈ 250 KB asked for at once, by key, unfiltered and by search,
 * each answered by the query or search function's bundle in a fresh Node.js 22 process with a
 * 256 MB function's heap flags, with and without `Accept-Encoding: gzip`. Reports the answer and
 * the process's peak RSS and heap: a crash (the heap limit) shows as status `crashed`.
 */
export async function memory(context: InvocationContext) {
  return measurePages(context, ...(await seedLargeResources(context)));
}

/** The resources' keys, and the earliest createdAt among them. */
export async function seedLargeResources(context: InvocationContext): Promise<[string[], string]> {
  const keys: string[] = [];
  let firstCreatedAt = '';
  for (let start = 0; start < RESOURCES; start += 5) {
    const created = await Promise.all(
      Array.from({ length: 5 }, (_, index) => {
        const key = `large-${start + index}`;
        keys.push(key);
        const arrayOfStringExample = Array.from({ length: STRINGS }, () => randomBytes(3_000).toString('base64'));
        return api(context, 'POST', `/${MEMORY_PROJECT}/resource`, { key, objectTypeProperty: { arrayOfStringExample } });
      }),
    );
    if (start === 0) firstCreatedAt = created.map((resource) => String(resource.createdAt)).sort()[0]!;
  }
  return [keys, firstCreatedAt];
}

export async function measurePages(context: InvocationContext, keys: string[], firstCreatedAt: string) {
  const keyIn = encodeURIComponent(`key in (${keys.map((key) => `"${key}"`).join(', ')})`);
  const requests = {
    'where=key in (500 keys)&limit=500': ['query-resources', `/${MEMORY_PROJECT}/resource?where=${keyIn}&limit=500&withTotal=false`],
    // A page just under the byte bound: read, rendered and compressed (random text: still too large, or not sent compressed).
    'limit=60, unfiltered': ['query-resources', `/${MEMORY_PROJECT}/resource?limit=60&withTotal=false`],
    'limit=500, unfiltered': ['query-resources', `/${MEMORY_PROJECT}/resource?limit=500&withTotal=false`],
    'search filter.query=createdAt:range(…)&limit=500': [
      'search-resources',
      `/${MEMORY_PROJECT}/resource/searchApiPattern?filter.query=${encodeURIComponent(`createdAt:range("${firstCreatedAt}" to *)`)}&limit=500&withTotal=false`,
    ],
  } as const;

  const node = node22();
  const outDir = await mkdtemp(join(tmpdir(), 'grs-memory-'));
  try {
    const built = {
      'query-resources': await buildFunction('query-resources', outDir),
      'search-resources': await buildFunction('search-resources', outDir),
    };
    const rows = [];
    for (const [request, [name, url]] of Object.entries(requests)) {
      for (const encoding of ['gzip', 'identity']) {
        const event = await recordEvent(name, { method: 'GET', url, headers: { authorization: `Bearer ${context.token}`, 'accept-encoding': encoding }, body: Buffer.alloc(0) });
        const answer = await runInFreshProcess(node, built[name], name, [event], outDir, LAMBDA_256_FLAGS).then(
          ({ calls: [call], memory }) => ({ status: String(call!.statusCode), ms: Math.round(call!.ms), ...memory, message: advice(call!.body) }),
          () => ({ status: 'crashed' }),
        );
        rows.push({ request, acceptEncoding: encoding, ...answer });
        console.log(`    ${request}, ${encoding}: ${JSON.stringify(answer)}`);
      }
    }
    return { resources: RESOURCES, resourceKb: Math.round((STRINGS * 4_000 + 200) / 1024), flags: LAMBDA_256_FLAGS.join(' '), rows };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/** A refusal's message (what the client is told to ask instead). */
const advice = (body?: string) => /"message":"([^"]*)/.exec(body ?? '')?.[1];
