import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDbResourceStore } from '../shared/store/dynamodb/resource-store';
import type { LocalStack } from '../local/stack';
import { measure, type Measurement } from './measure';

export const SEEDED_RESOURCES = 10_000;
const PROJECT = 'bench';

/**
 * Query at scale: 10,000 resources in one project, then the latency of the query shapes that
 * read the whole partition (predicate, sort, HEAD with a late match, fuzzy search) and of the
 * one that does not (the SDK's process() page, which starts at an id).
 */
export async function queryAtScale(stack: LocalStack, token: string): Promise<Record<string, Measurement>> {
  await seed(stack);
  const get = (path: string, method = 'GET') => async () => {
    const response = await fetch(`${stack.url}/${PROJECT}/resource${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}`);
  };
  const where = (predicate: string) => encodeURIComponent(predicate);
  const { body: middle } = await fetch(`${stack.url}/${PROJECT}/resource?sort=id asc&offset=5000&limit=1&withTotal=false`, {
    headers: { authorization: `Bearer ${token}` },
  }).then(async (response) => ({ body: (await response.json()) as { results: { id: string }[] } }));

  return {
    'selective predicate (key = …), with total': await measure(get(`?where=${where('key = "bench-07777"')}`)),
    'nested predicate over arrays of objects': await measure(get(`?where=${where('objectTypeProperty(arrayOfObjectType(integerExample = 4242))')}&withTotal=false`)),
    'sorted query (float desc, limit 20)': await measure(get('?sort=objectTypeProperty.arrayOfFloatExample desc&limit=20')),
    'HEAD, match near the end': await measure(get(`?where=${where('key = "bench-09990"')}`, 'HEAD')),
    'fuzzy search (text.en, level 1)': await measure(get('/searchApiPattern?text.en=animxl&fuzzy=true&limit=20')),
    'process() page (id > x, withTotal=false)': await measure(get(`?sort=id asc&withTotal=false&limit=500&where=${where(`id > "${middle.results[0]!.id}"`)}`)),
  };
}

async function seed(stack: LocalStack): Promise<void> {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: stack.dynamoDbEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const store = new DynamoDbResourceStore(db, stack.tableName);
  const CONCURRENCY = 32;
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < SEEDED_RESOURCES) {
        const index = next++;
        await store.create(PROJECT, {
          key: `bench-${String(index).padStart(5, '0')}`,
          objectTypeProperty: {
            arrayOfIntExample: [index % 97, index % 13],
            arrayOfUniqueIntExample: [index],
            arrayOfTwonumbersExample: [index, index / 2],
            arrayOfFloatExample: [(index * 7919) % 10_000 / 100],
            arrayOfStringExample: [`animal${index % 50}`, index % 2 ? 'dog' : 'cat', `word${index}`],
            arrayOfObjectType: [{ integerExample: index % 64_650, integerExampleInt32: index }],
          },
        });
      }
    }),
  );
  db.destroy();
}
