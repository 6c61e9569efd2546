import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CommercetoolsMock } from '@labdigital/commercetools-mock';
import { dynamoDb as documentClient } from '../shared/composition-root';
import { creationOrderedId } from '../shared/domain/resource-id';
import { keySentinelKey, resourceKey, statsShardKey } from '../shared/store/dynamodb/keys';
import type { LocalStack } from '../local/stack';
import { corpusResource, createdAtOf as at, keyOf, SEARCH_SHAPES } from './search-corpus';

/**
 * Queries at scale: a project of each size (1k, 10k, 100k resources of bench/search-corpus.ts,
 * batch-written straight into DynamoDB Local, whose stream feeds the search index as it feeds it
 * any write), and per size the shapes of the query-at-scale issue and the searches, each
 * measured side by side with a GET by key of the same project — alternating, several rounds — as
 * p50, p95, their p50 ratio to the GET by key, and DynamoDB's read units per request. The same
 * query shapes run against @labdigital/commercetools-mock (in memory) at 10k on its `customers`
 * (the mock ignores `sort` on custom objects; customers have key, createdAt, lastModifiedAt and
 * an array of objects, `addresses`; it has no search of customers).
 */
export const QUERY_AT_SCALE_SIZES = (process.env.QUERY_AT_SCALE_SIZES ?? '1000,10000,100000').split(',').map(Number);
const MOCK_SIZE = 10_000;
const ROUNDS = Number(process.env.QUERY_AT_SCALE_ROUNDS ?? 4);
const PER_ROUND = 3;
/** The mock's project; ours are one per size. */
const PROJECT = 'bench';
export const scaleProjectOf = (size: number) => `bench-${size}`;
/** How long the index may take to hold a seeded project before the run gives up. */
const INDEX_WAIT_MS = 30 * 60_000;

export interface ShapeFigures {
  p50Ms: number;
  p95Ms: number;
  /** p50 of the shape over p50 of a GET by key measured alternately with it. */
  p50RatioToGetByKey: number;
  /** DynamoDB's read units of one call of the shape. */
  readUnits?: number;
  status: number;
  /** A search's `total` (what it selected), when it asked for one, else its `count`. */
  selected?: number;
  /** A search's answer, in bytes: a facet's does not grow with the project. */
  answerBytes?: number;
  /** The bound on p50RatioToGetByKey the shape is held to. */
  goalRatio?: number;
}

interface Shape {
  name: string;
  method?: 'GET' | 'HEAD' | 'POST';
  /** A POST's JSON body, for a project of `size` resources. */
  body?: (size: number) => object | undefined;
  /** The path under the resource collection, for a project of `size` resources. */
  ours: (size: number) => string;
  /** The same question to the mock's customers, when it can be asked there (the mock has no search of customers). */
  mock?: (size: number) => string;
  goalRatio?: number;
}
const w = (predicate: string) => `where=${encodeURIComponent(predicate)}`;
const quoted = (values: string[]) => values.map((value) => `"${value}"`).join(', ');
/** 49 resources in the middle of the project (seeded resources were last modified when created). */
const lastModifiedRange = (size: number) => `lastModifiedAt > "${at(Math.floor(size / 2))}" and lastModifiedAt < "${at(Math.floor(size / 2) + 50)}"`;
const middleKeys = (size: number) => [keyOf(Math.floor(size / 2)), keyOf(Math.floor(size / 3)), keyOf(size - 7)];

/** Shapes of the issue's table (index-answerable) and, for contrast, three that are not. */
function shapes(ids: { ours: (index: number) => string; mock: (index: number) => string }): Shape[] {
  const both = (path: (id: (index: number) => string, size: number) => string) => ({
    ours: (size: number) => path(ids.ours, size),
    mock: (size: number) => path(ids.mock, size),
  });
  return [
    { name: 'key = …', ...both((_, size) => `?${w(`key = "${keyOf(Math.floor(size / 2))}"`)}&withTotal=false`) },
    { name: 'key in (3) and a predicate', ...both((_, size) => `?${w(`key in (${quoted(middleKeys(size))}) and version = 1`)}&withTotal=false`) },
    { name: 'id = …', ...both((id, size) => `?${w(`id = "${id(Math.floor(size / 2))}"`)}&withTotal=false`) },
    { name: 'id in (3)', ...both((id, size) => `?${w(`id in (${quoted([id(Math.floor(size / 2)), id(3), id(size - 2)])})`)}&withTotal=false`) },
    { name: 'sort=createdAt desc, limit 20', ...both(() => '?sort=createdAt desc&limit=20&withTotal=false') },
    { name: 'sort=createdAt asc, limit 20, offset 500', ...both(() => '?sort=createdAt asc&limit=20&offset=500&withTotal=false') },
    { name: 'sort=createdAt desc, limit 20, offset 500', ...both(() => '?sort=createdAt desc&limit=20&offset=500&withTotal=false') },
    // The SDK's way through a whole project, one page at any depth: the id range after the last id of the page before.
    { name: 'cursor page (sort=id asc, id > last id), limit 20', ...both((id, size) => `?sort=id asc&${w(`id > "${id(Math.floor(size / 2))}"`)}&limit=20&withTotal=false`) },
    {
      name: 'createdAt range, sort=createdAt asc',
      ...both((_, size) => `?${w(`createdAt >= "${at(Math.floor(size / 2))}" and createdAt < "${at(Math.floor(size / 2) + 50)}"`)}&sort=createdAt asc&limit=20&withTotal=false`),
    },
    { name: 'HEAD, key = …', method: 'HEAD', ...both((_, size) => `?${w(`key = "${keyOf(size - 3)}"`)}`) },
    { name: 'withTotal=true, unfiltered, limit 20', ...both(() => '?limit=20&withTotal=true') },
    { name: 'sort=lastModifiedAt desc, limit 20', ...both(() => '?sort=lastModifiedAt desc&limit=20&withTotal=false') },
    { name: 'sort=lastModifiedAt asc, limit 20', ...both(() => '?sort=lastModifiedAt asc&limit=20&withTotal=false') },
    { name: 'sort=lastModifiedAt asc, limit 20, offset 500', ...both(() => '?sort=lastModifiedAt asc&limit=20&offset=500&withTotal=false') },
    { name: 'sort=lastModifiedAt desc, limit 20, offset 500', ...both(() => '?sort=lastModifiedAt desc&limit=20&offset=500&withTotal=false') },
    {
      name: 'lastModifiedAt range, sort=lastModifiedAt desc',
      ...both((_, size) => `?${w(lastModifiedRange(size))}&sort=lastModifiedAt desc&limit=20&withTotal=false`),
    },
    { name: 'lastModifiedAt range alone', ...both((_, size) => `?${w(lastModifiedRange(size))}&limit=20&withTotal=false`) },
    {
      name: 'predicate over arrays of objects, limit 20 (no index)',
      ours: () => `?${w('objectTypeProperty(arrayOfObjectType(integerExample = 4242))')}&limit=20&withTotal=false`,
      mock: () => `?${w('addresses(city = "city-4242")')}&limit=20&withTotal=false`,
    },
    {
      name: 'the same predicate with total (no index)',
      ours: () => `?${w('objectTypeProperty(arrayOfObjectType(integerExample = 4242))')}&limit=20`,
      mock: () => `?${w('addresses(city = "city-4242")')}&limit=20`,
    },
    // Searches, answered by the search engine, each held to its goal.
    ...SEARCH_SHAPES.map(({ name, http, goalRatio }) => ({
      name,
      method: http(1).method,
      ours: (size: number) => http(size).path,
      body: (size: number) => {
        const asked = http(size);
        return 'body' in asked ? asked.body : undefined;
      },
      goalRatio,
    })),
  ];
}

export async function queryAtScale(stack: LocalStack, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  const bySize: Record<string, Record<string, ShapeFigures>> = {};
  const indexing: Record<string, { seedMs: number; searchableAfterSeedMs: number }> = {};
  let readUnits = 0;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      if (/^(GetItem|Query|Scan|BatchGetItem)Command$/.test(String(context.commandName))) {
        const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
        readUnits += [consumed ?? []].flat().reduce((sum, capacity) => sum + (capacity.CapacityUnits ?? 0), 0);
      }
      return result;
    },
    { step: 'initialize', name: 'queryAtScaleReadUnits' },
  );
  try {
    for (const size of QUERY_AT_SCALE_SIZES) {
      console.log(`… seeding ${size} resources`);
      const project = scaleProjectOf(size);
      let started = performance.now();
      const ids = await seed(seeder(stack), stack.tableName, project, size);
      const seedMs = performance.now() - started;
      started = performance.now();
      await searchableProject(`${stack.url}/${project}/resource`, headers, size);
      indexing[String(size)] = { seedMs: round(seedMs, 0), searchableAfterSeedMs: round(performance.now() - started, 0) };
      console.log(`  ${size} seeded in ${indexing[String(size)]!.seedMs} ms, all searchable ${indexing[String(size)]!.searchableAfterSeedMs} ms later`);
      const ourShapes = shapes({ ours: (index) => ids[index]!, mock: () => '' });
      let selected: number | undefined;
      let answerBytes: number | undefined;
      const request = (path: string, method = 'GET', json?: object) => async () => {
        const sent = json === undefined ? {} : { body: JSON.stringify(json), headers: { ...headers, 'content-type': 'application/json' } };
        const response = await fetch(`${stack.url}/${project}/resource${path}`, { method, headers, ...sent });
        const body = await response.text();
        if (path.startsWith('/search') && response.status === 200) {
          const answer = JSON.parse(body) as { total?: number; count: number };
          selected = answer.total ?? answer.count;
          answerBytes = body.length;
        }
        return response.status;
      };
      const baseline = request(`/key=${keyOf(Math.floor(size / 4))}`);
      // The authorizer's verdict for the token is cached for a while: renew it, so that a shape's
      // first call reads only what the shape itself reads.
      await baseline();
      bySize[String(size)] = {};
      for (const shape of ourShapes) {
        const call = request(shape.ours(size), shape.method, shape.body?.(size));
        readUnits = 0;
        selected = undefined;
        answerBytes = undefined;
        const status = await call();
        const [units, firstSelected, firstBytes] = [readUnits, selected, answerBytes];
        // A query past the budget takes the budget's time: one round of it says so.
        bySize[String(size)]![shape.name] = {
          ...(await sideBySide(call, baseline, status === 200 ? ROUNDS : 1)),
          readUnits: round(units),
          status,
          ...(firstSelected === undefined ? {} : { selected: firstSelected }),
          ...(firstBytes === undefined ? {} : { answerBytes: firstBytes }),
          ...(shape.goalRatio === undefined ? {} : { goalRatio: shape.goalRatio }),
        };
        console.log(`  ${size} ${shape.name}: ${JSON.stringify(bySize[String(size)]![shape.name])}`);
      }
    }
  } finally {
    documentClient().middlewareStack.remove('queryAtScaleReadUnits');
  }
  console.log(`… the labd mock at ${MOCK_SIZE} customers`);
  const mock = await mockFigures(shapes({ ours: () => '', mock: () => '' }).length);
  return {
    projects: Object.fromEntries(QUERY_AT_SCALE_SIZES.map((size) => [String(size), scaleProjectOf(size)])),
    sizes: QUERY_AT_SCALE_SIZES,
    method:
      `${ROUNDS} rounds of ${PER_ROUND} calls of the shape and ${PER_ROUND} GETs by key, alternating; read units of the first call (ConsumedCapacity). ` +
      'Each project is batch-written into DynamoDB Local and indexed by the local stream feed (functions/index-changes), as any write is; ' +
      'measuring starts once a search counts every resource',
    indexing,
    resources: bySize,
    labdMock: { resourceType: 'customers', size: MOCK_SIZE, shapes: mock },
  };
}

/** The shape and the baseline alternate call by call, so both see the same machine load. */
async function sideBySide(shape: () => Promise<number>, baseline: () => Promise<number>, rounds = ROUNDS) {
  const shapeMs: number[] = [];
  const baselineMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (let index = 0; index < PER_ROUND; index++) {
      shapeMs.push(await timed(shape));
      baselineMs.push(await timed(baseline));
    }
  }
  const shapeP50 = quantile(shapeMs, 0.5);
  return { p50Ms: shapeP50, p95Ms: quantile(shapeMs, 0.95), p50RatioToGetByKey: round(shapeP50 / quantile(baselineMs, 0.5), 2) };
}

async function timed(operation: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await operation();
  return performance.now() - started;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!);
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Seeds a project of `size` resources with BatchWriteItem (resources and key sentinels, as the
 * store writes them), then counts them in a counter shard: seeding, not the API's create path.
 * Their ids, in creation order.
 */
async function seed(client: DynamoDBDocumentClient, tableName: string, project: string, size: number): Promise<string[]> {
  const ids: string[] = [];
  const writes: Record<string, unknown>[] = [];
  for (let index = 0; index < size; index++) {
    const resource = corpusResource(index, size);
    ids.push(resource.id);
    writes.push({ ...resourceKey(project, resource.id), type: 'resource', ...resource });
    writes.push({ ...keySentinelKey(project, resource.key!), type: 'resource-key', resourceId: resource.id });
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < writes.length) {
        const batch = writes.slice(next, next + 25);
        next += 25;
        let pending: Record<string, unknown>[] | undefined = batch.map((Item) => ({ PutRequest: { Item } }));
        while (pending?.length) {
          const answer = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }));
          pending = answer.UnprocessedItems?.[tableName] as Record<string, unknown>[] | undefined;
        }
      }
    }),
  );
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: statsShardKey(project, 0),
      UpdateExpression: 'SET #type = :type ADD resources :added',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':type': 'stats', ':added': size },
    }),
  );
  return ids;
}

/** Waits until a search of the project counts `size` resources: the index holds every one. */
async function searchableProject(collection: string, headers: Record<string, string>, size: number): Promise<void> {
  const deadline = Date.now() + INDEX_WAIT_MS;
  for (;;) {
    const response = await fetch(`${collection}/searchApiPattern?limit=1`, { headers });
    const total = response.status === 200 ? ((await response.json()) as { total?: number }).total : (await response.text(), undefined);
    if (total === size) return;
    if (Date.now() > deadline) throw new Error(`The search index held ${total ?? `nothing (${response.status})`} of ${size} resources after ${INDEX_WAIT_MS / 60_000} min`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * A client of its own for seeding: the service's gives up on a request after 2 s (shared/aws/
 * request-timeouts.ts), which a batch write with the index can take on a loaded machine.
 */
const seeder = (stack: LocalStack) =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.dynamoDbEndpoint,
      region: 'local',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      requestHandler: { requestTimeout: 60_000 },
    }),
  );

/** The same shapes against the labd mock's customers, on a port of its own. */
async function mockFigures(shapeCount: number): Promise<Record<string, ShapeFigures>> {
  const mock = new CommercetoolsMock({ enableAuthentication: false, validateCredentials: false, defaultProjectKey: PROJECT, silent: true } as never);
  const project = mock.project(PROJECT);
  const ids: string[] = [];
  for (let index = 0; index < MOCK_SIZE; index++) {
    const createdAt = at(index);
    const id = creationOrderedId(createdAt);
    ids.push(id);
    await project.unsafeAdd('customer', {
      id,
      key: keyOf(index),
      version: 1,
      createdAt,
      lastModifiedAt: createdAt,
      email: `customer-${index}@example.com`,
      addresses: [{ id: `a-${index}`, country: 'DE', city: `city-${index % 64_650}` }],
      shippingAddressIds: [],
      billingAddressIds: [],
      isEmailVerified: false,
      customerGroupAssignments: [],
      stores: [],
      authenticationMode: 'Password',
    } as never);
  }
  const port = 18_291;
  await mock.runServer(port);
  try {
    const request = (path: string, method = 'GET') => async () => {
      const response = await fetch(`http://127.0.0.1:${port}/${PROJECT}/customers${path}`, { method });
      await response.arrayBuffer();
      return response.status;
    };
    const baseline = request(`/key=${keyOf(Math.floor(MOCK_SIZE / 4))}`);
    const figures: Record<string, ShapeFigures> = {};
    for (const shape of shapes({ ours: () => '', mock: (index) => ids[index]! }).slice(0, shapeCount)) {
      if (!shape.mock) continue;
      const call = request(shape.mock(MOCK_SIZE), shape.method);
      const status = await call();
      figures[shape.name] = { ...(await sideBySide(call, baseline)), status };
      console.log(`  mock ${shape.name}: ${JSON.stringify(figures[shape.name])}`);
    }
    return figures;
  } finally {
    await mock.app.close();
  }
}
