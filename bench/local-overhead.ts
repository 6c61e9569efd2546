import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway } from '../local/gateway';
import { endpoints, fallback } from '../functions/endpoints';
import { createLocalGateway, type LocalStack } from '../local/stack';
import { percentiles, type Measurement } from './measure';

export const OVERHEAD_ROUNDS = 3;
const RUNS_PER_ROUND = 200;
const WARMUP = 200; // the first round must not pay for JIT compilation

/**
 * What the local mode adds to a GET by id: through the local service over HTTP (gateway,
 * authorizer verdict cache, handler) against a raw GetItem of the same item on the same DynamoDB
 * Local, alternating request by request so both see the same machine load, in three rounds. The
 * same request answered in-process (gateway and handler, no client socket) is timed in the same
 * alternation, to tell the HTTP hop from the gateway's own work, and so is the floor of any HTTP
 * service over that GetItem (a server that makes the raw call and writes the service's answer).
 */
export async function localOverhead(stack: LocalStack, token: string, project: string) {
  const created = await fetch(`${stack.url}/${project}/resource`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ objectTypeProperty: { arrayOfIntExample: [1, 2, 3], arrayOfStringExample: ['overhead'] } }),
  }).then((response) => response.json() as Promise<{ id: string }>);

  // Like the handlers' client, the SDK keeps its connection to DynamoDB Local alive.
  const raw = new DynamoDBClient({
    endpoint: stack.dynamoDbEndpoint,
    region: 'local',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const getItem = new GetItemCommand({
    TableName: stack.tableName,
    Key: { pk: { S: `PROJECT#${project}` }, sk: { S: `RESOURCE#${created.id}` } },
    ConsistentRead: true,
  });
  const gateway = await createLocalGateway();
  // The same kind of client on both sides: node:http with a keep-alive agent, as the SDK's own
  // handler uses for GetItem (fetch's client costs about 0.3 ms more per request here).
  const agent = new Agent({ keepAlive: true });
  const { port } = new URL(stack.url);
  const hostname = '127.0.0.1'; // where bench/run.ts binds the stack
  // The floor of any HTTP service here: one loopback exchange with a server that answers at once.
  const trivial = createServer((_, response) => response.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 }).end('{}'));
  await new Promise<void>((done) => trivial.listen(0, '127.0.0.1', done));
  // The floor of any HTTP service over this GetItem: a server that makes the raw call, then
  // writes the service's own answer (status, headers, body), with no routing, auth or handler.
  const answered = await gateway.answer({ method: 'GET', url: `/${project}/resource/${created.id}`, headers: { authorization: `Bearer ${token}` }, body: Buffer.alloc(0) });
  const answerBody = Buffer.from(answered.body ?? '');
  const answerHeaders = { ...Object.fromEntries(Object.entries(answered.headers ?? {}).map(([name, value]) => [name, String(value)])), 'content-length': answerBody.length };
  const overGetItem = createServer((_, response) => {
    void raw.send(getItem).then(() => response.writeHead(200, answerHeaders).end(answerBody));
  });
  await new Promise<void>((done) => overGetItem.listen(0, '127.0.0.1', done));
  const get = (path: string, at: string | number = port) =>
    new Promise<number>((done, fail) => {
      const request = httpRequest({ host: hostname, port: at, path, headers: { authorization: `Bearer ${token}` }, agent }, (response) => {
        response.resume();
        response.on('end', () => done(response.statusCode ?? 0));
      });
      request.on('error', fail);
      request.end();
    });
  const paths = {
    viaHttp: async () => {
      const status = await get(`/${project}/resource/${created.id}`);
      if (status !== 200) throw new Error(`GET by id through the local service: ${status}`);
    },
    inProcess: () =>
      gateway.answer({ method: 'GET', url: `/${project}/resource/${created.id}`, headers: { authorization: `Bearer ${token}` }, body: Buffer.alloc(0) }),
    rawGetItem: () => raw.send(getItem),
    emptyHttpExchange: () => get('/', (trivial.address() as AddressInfo).port),
    httpOverGetItem: () => get(`/${project}/resource/${created.id}`, (overGetItem.address() as AddressInfo).port),
  };

  const rounds = [];
  for (let round = 0; round < OVERHEAD_ROUNDS; round++) {
    const durations = { viaHttp: [] as number[], inProcess: [] as number[], rawGetItem: [] as number[], emptyHttpExchange: [] as number[], httpOverGetItem: [] as number[] };
    for (let index = round === 0 ? 0 : WARMUP; index < WARMUP + RUNS_PER_ROUND; index++) {
      for (const [name, call] of Object.entries(paths) as [keyof typeof paths, () => Promise<unknown>][]) {
        const started = performance.now();
        await call();
        if (index >= WARMUP) durations[name].push(performance.now() - started);
      }
    }
    const viaHttp = percentiles(durations.viaHttp);
    const inProcess = percentiles(durations.inProcess);
    const rawGetItem = percentiles(durations.rawGetItem);
    const emptyHttpExchange = percentiles(durations.emptyHttpExchange);
    const httpOverGetItem = percentiles(durations.httpOverGetItem);
    rounds.push({
      viaHttp,
      inProcess,
      rawGetItem,
      emptyHttpExchange,
      httpOverGetItem,
      p50Ratio: ratio(viaHttp, rawGetItem),
      inProcessP50Ratio: ratio(inProcess, rawGetItem),
      floorP50Ratio: ratio(httpOverGetItem, rawGetItem),
    });
  }
  raw.destroy();
  agent.destroy();
  trivial.close();
  overGetItem.close();
  return {
    runsPerRound: RUNS_PER_ROUND,
    rounds,
    gatewayAloneMicroseconds: await gatewayAlone(project, created.id, token),
    /** The worst round decides. */
    p50Ratio: Math.max(...rounds.map((round) => round.p50Ratio)),
    inProcessP50Ratio: Math.max(...rounds.map((round) => round.inProcessP50Ratio)),
    floorP50Ratio: Math.max(...rounds.map((round) => round.floorP50Ratio)),
  };
}

const ratio = (path: Measurement, raw: Measurement) => Math.round((path.p50Ms / raw.p50Ms) * 100) / 100;

/**
 * The gateway's own work per request (route, event, cached verdict, answer), with a handler that
 * answers at once: what the local mode adds beyond the HTTP exchange and the real handler.
 */
async function gatewayAlone(project: string, id: string, token: string): Promise<number> {
  const gateway = createGateway({
    endpoints,
    fallback,
    loadHandler: async () => async () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' }),
    authorizer: async () => ({ isAuthorized: true, context: { authenticated: 'true', clientId: 'bench', scope: `view_test:${project}`, expiresAt: '9999999999' } }),
  });
  const request = { method: 'GET', url: `/${project}/resource/${id}`, headers: { authorization: `Bearer ${token}` }, body: Buffer.alloc(0) };
  const RUNS = 20_000;
  for (let index = 0; index < RUNS; index++) await gateway.answer(request);
  const started = performance.now();
  for (let index = 0; index < RUNS; index++) await gateway.answer(request);
  return Math.round(((performance.now() - started) / RUNS) * 10_000) / 10;
}
