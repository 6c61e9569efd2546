import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dynamoDb } from '../shared/composition-root';
import { API_ACCESS_LOG_FORMAT } from '../infra/stack';
import type { LocalStack } from '../local/stack';
import { median } from './bundles';
import { api, invocations, type InvocationContext } from './function-invocations';
import { buildFunction, recordEvent, runInFreshProcess } from './lambda-process';
import { node22 } from './node22';
import { FUNCTION_MEMORY_MB, MIX, PRICES, round } from './cost-model';

/** X-Ray: off, or active tracing with a sampling rule (a reservoir of traces per second, then a fixed rate). */
export type TracingOption = { mode: 'off' } | { mode: 'sampled'; reservoirPerSecond: number; fixedRate: number };

/**
 * What the model assumes where this run cannot measure it. Each is stated in docs/performance.md.
 */
export const ASSUMPTIONS = {
  /** Calls a client makes with one token (the SDK keeps its token until it expires after 48 h). */
  callsPerToken: 10_000,
  /** API Gateway's authorizer cache (300 s per Authorization header) answers this share of calls. */
  authorizerCacheHitRate: 0.99,
  /** Steady traffic the tracing reservoir is spread over. */
  requestsPerSecond: 100,
  /**
   * API Gateway's access log as the stack deploys it by default (infra/stack.ts `accessLog`: on
   * unless `-c accessLog=false`); the other choice is priced next to it (`accessLogOptions`).
   */
  accessLog: true,
  /** The tracing the stack deploys (it must match infra/constructs/endpoint-function.ts); the others are priced next to it. */
  tracing: { mode: 'off' } as TracingOption,
  tracingAlternatives: [
    // X-Ray's default rule with active tracing: the first request each second, then 5 %.
    { mode: 'sampled', reservoirPerSecond: 1, fixedRate: 0.05 },
    // A sampling rule that keeps the goal: no reservoir, 0.2 % of requests.
    { mode: 'sampled', reservoirPerSecond: 0, fixedRate: 0.002 },
  ] as TracingOption[],
};

interface Operation {
  lambdaMs: number;
  logBytes: number;
  logLines: number;
  readUnits: number;
  writeUnits: number;
  indexWriteUnits: number;
  responseBytes: number;
}

/**
 * Cost per million calls of the 80/20 mix (GET by id / update with changeSomeProperty), all in,
 * from what this run measures: DynamoDB's own ConsumedCapacity per call (ReturnConsumedCapacity
 * INDEXES, added by a middleware), the warm invocation time of the real bundles in Node.js 22
 * and the bytes they log per call (their request line), the bytes of each answer, and the access
 * log line API Gateway writes when it is on; plus the authorizer and the token service at the
 * stated token reuse and cache hit rate.
 */
export async function costPerMillion(stack: LocalStack, token: string, project: string, client: InvocationContext['client']) {
  const context: InvocationContext = { stack, token, project, client, resource: { id: '', key: 'cost-model' } };
  const created = await api(context, 'PUT', `/${project}/resource`, {
    key: 'cost-model',
    objectTypeProperty: { arrayOfIntExample: [1, 2, 3], arrayOfStringExample: ['cost', 'model'] },
  });
  context.resource.id = String(created.id);

  const outDir = await mkdtemp(join(tmpdir(), 'grs-cost-'));
  try {
    const node = node22();
    const warm = async (name: string, events: unknown[]) => {
      const { calls } = await runInFreshProcess(node, await buildFunction(name, outDir), name, events, outDir);
      const later = calls.slice(1); // the first call is the cold start
      for (const call of later) if ((call.statusCode ?? 200) >= 400) throw new Error(`${name}: ${call.statusCode} ${call.body}`);
      return { ms: median(later.map((call) => call.ms)), logBytes: median(later.map((call) => call.logBytes)), logLines: median(later.map((call) => call.logLines)) };
    };
    const WARM_CALLS = 21;
    const readEvent = await recordEvent('get-resource', await invocations['get-resource']!.request(context));
    const read = await measureOperation(context, () => invocations['get-resource']!.request(context), () => warm('get-resource', Array(WARM_CALLS).fill(readEvent)));

    const updateAt = (version: number, index: number) => ({
      method: 'POST',
      url: `/${project}/resource/${context.resource.id}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      // A new value each time: an update that changes nothing writes nothing.
      body: Buffer.from(JSON.stringify({ version, actions: [{ action: 'changeSomeProperty', someProperty: `value ${index}` }] })),
    });
    const write = await measureOperation(
      context,
      async () => updateAt(Number((await api(context, 'GET', `/${project}/resource/${context.resource.id}`)).version), Math.random()),
      async () => {
        const { version } = await api(context, 'GET', `/${project}/resource/${context.resource.id}`);
        const events = [];
        for (let index = 0; index < WARM_CALLS; index++) events.push(await recordEvent('update-resource', updateAt(Number(version) + index, index)));
        return warm('update-resource', events);
      },
    );
    const authorizerEvent = await recordEvent('authorizer', await invocations.authorizer!.request(context));
    const authorizerCall = await warm('authorizer', Array(WARM_CALLS).fill(authorizerEvent));
    const tokenEvent = await recordEvent('issue-token', await invocations['issue-token']!.request(context));
    const tokenCall = await warm('issue-token', Array(6).fill(tokenEvent));

    const accessLogBytes = accessLogLineBytes();
    const mix = (pick: (operation: Operation) => number) => MIX.reads * pick(read) + MIX.writes * pick(write);
    const gbSeconds = (ms: number) => (Math.ceil(ms) / 1000) * (FUNCTION_MEMORY_MB / 1024);
    const logGb = (bytes: number, lines: number) => (bytes + lines * PRICES.logEventOverheadBytes) / 1024 ** 3;
    const M = 1e6;

    // Authorizer: invoked on cache misses (one consistent client read each); tokens issued at the
    // stated reuse, each one call of the token service (one client read, one KMS Sign, its request
    // line). The access log's lines of all these API calls are priced apart (`accessLogs`).
    const authorizerCalls = M * (1 - ASSUMPTIONS.authorizerCacheHitRate);
    const tokensIssued = M / ASSUMPTIONS.callsPerToken;
    const accessLogPerMillion = (M + tokensIssued) * logGb(accessLogBytes, 1) * PRICES.cloudWatchLogsPerGb;
    const authorizer =
      authorizerCalls * (PRICES.lambdaRequestsPerMillion / M + gbSeconds(authorizerCall.ms) * PRICES.lambdaArmPerGbSecond + PRICES.dynamoDbReadUnitPerMillion / M) +
      authorizerCalls * logGb(authorizerCall.logBytes, authorizerCall.logLines) * PRICES.cloudWatchLogsPerGb +
      tokensIssued *
        ((PRICES.httpApiPerMillion + PRICES.lambdaRequestsPerMillion + PRICES.dynamoDbReadUnitPerMillion) / M +
          gbSeconds(tokenCall.ms) * PRICES.lambdaArmPerGbSecond +
          PRICES.kmsRsa2048RequestsPer10k / 1e4 +
          logGb(tokenCall.logBytes, tokenCall.logLines) * PRICES.cloudWatchLogsPerGb);

    const items = {
      apiGateway: PRICES.httpApiPerMillion,
      lambdaRequests: PRICES.lambdaRequestsPerMillion,
      lambdaCompute: M * mix((operation) => gbSeconds(operation.lambdaMs)) * PRICES.lambdaArmPerGbSecond,
      dynamoDbReads: mix((operation) => operation.readUnits) * PRICES.dynamoDbReadUnitPerMillion,
      dynamoDbWrites: mix((operation) => operation.writeUnits) * PRICES.dynamoDbWriteUnitPerMillion,
      indexWrites: mix((operation) => operation.indexWriteUnits) * PRICES.dynamoDbWriteUnitPerMillion,
      cloudWatchLogs: M * mix((operation) => logGb(operation.logBytes, operation.logLines)) * PRICES.cloudWatchLogsPerGb,
      accessLogs: ASSUMPTIONS.accessLog ? accessLogPerMillion : 0,
      tracing: tracingPerMillion(ASSUMPTIONS.tracing),
      dataTransferOut: (M * mix((operation) => operation.responseBytes) / 1024 ** 3) * PRICES.dataTransferOutPerGb,
      authorizer,
    };
    const rounded = Object.fromEntries(Object.entries(items).map(([name, value]) => [name, round(value, 4)])) as Record<keyof typeof items, number>;
    const total = round(Object.values(rounded).reduce((sum, value) => sum + value, 0), 4);
    return {
      mix: `${MIX.reads * 100}% GET by id, ${MIX.writes * 100}% update (changeSomeProperty)`,
      perOperation: { read, write },
      authorizerCall,
      issueTokenCall: tokenCall,
      accessLogBytesPerCall: accessLogBytes,
      functionMemoryMb: FUNCTION_MEMORY_MB,
      assumptions: ASSUMPTIONS,
      prices: PRICES,
      usdPerMillion: { ...rounded, total },
      accessLogOptions: { off: 0, on: round(accessLogPerMillion, 4) },
      tracingOptions: Object.fromEntries(
        [ASSUMPTIONS.tracing, ...ASSUMPTIONS.tracingAlternatives].map((option) => [describeTracing(option), round(tracingPerMillion(option), 4)]),
      ),
      subscriptionsPerMillionChanges: subscriptionCostPerMillionChanges(),
      imagesNote: `an image upload adds one S3 PUT: $${PRICES.s3PutPerThousand * 1000} per million uploads, plus storage`,
    };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/**
 * Change subscriptions, per million resource changes, apart from the 80/20 mix (a project pays it
 * only for what it subscribes). Modelled, not measured: the stream's reads by the event source
 * mapping and its filtering are free; each batch is one invocation (the worst case: a change per
 * batch, as at low traffic), which reads the project's subscriptions and whether each has parked
 * notifications (a strongly consistent Query each, one read unit) and waits for the destination; a
 * delivery logs nothing (failures do). SQS, SNS and EventBridge bill the receiving account, not this one.
 */
export function subscriptionCostPerMillionChanges(options = { subscriptions: 1, changesPerBatch: 1, destinationMs: 100, notificationBytes: 400 }) {
  const M = 1e6;
  const invocations = M / options.changesPerBatch;
  const items = {
    lambdaRequests: (invocations / M) * PRICES.lambdaRequestsPerMillion,
    lambdaCompute: invocations * (FUNCTION_MEMORY_MB / 1024) * ((options.destinationMs * options.subscriptions * options.changesPerBatch) / 1000) * PRICES.lambdaArmPerGbSecond,
    dynamoDbReads: (invocations * (1 + options.subscriptions) * PRICES.dynamoDbReadUnitPerMillion) / M,
    dataTransferOut: ((M * options.subscriptions * options.notificationBytes) / 1024 ** 3) * PRICES.dataTransferOutPerGb,
  };
  const rounded = Object.fromEntries(Object.entries(items).map(([name, value]) => [name, round(value, 4)]));
  return { assumptions: options, usdPerMillionChanges: { ...rounded, total: round(Object.values(items).reduce((sum, value) => sum + value, 0), 4) } };
}

/**
 * DynamoDB units, table and indexes apart, of one operation through the local stack (in
 * process: the handlers share this process's DynamoDB client), its answer's size, and the real
 * bundle's warm invocation time and log output.
 */
async function measureOperation(
  context: InvocationContext,
  request: () => Promise<Parameters<typeof recordEvent>[1]> | Parameters<typeof recordEvent>[1],
  warmCalls: () => Promise<{ ms: number; logBytes: number; logLines: number }>,
): Promise<Operation> {
  const units = { read: 0, write: 0, index: 0 };
  // Only the measured request's calls: not those that prepare it, nor the change stream's consumer running beside it.
  const counting = new AsyncLocalStorage<true>();
  dynamoDb().middlewareStack.add(
    (next, middlewareContext) => async (args) => {
      if (!counting.getStore()) return next(args);
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'INDEXES';
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: Capacity | Capacity[] };
      for (const capacity of [output.ConsumedCapacity ?? []].flat()) {
        const table = capacity.Table?.CapacityUnits ?? capacity.CapacityUnits ?? 0;
        const indexes = Object.values({ ...capacity.GlobalSecondaryIndexes, ...capacity.LocalSecondaryIndexes }).reduce((sum, index) => sum + (index.CapacityUnits ?? 0), 0);
        if (/^(GetItem|Query|Scan|BatchGetItem|TransactGetItems)Command$/.test(String(middlewareContext.commandName))) units.read += table + indexes;
        else {
          units.write += table;
          units.index += indexes;
        }
      }
      return result;
    },
    { step: 'initialize', name: 'consumedCapacity' },
  );
  const { createLocalGateway } = await import('../local/stack');
  const gateway = await createLocalGateway();
  const RUNS = 10;
  let responseBytes = 0;
  try {
    await gateway.answer(await request()); // the authorizer's verdict is cached from here on (its read is the authorizer's item)
    for (let run = 0; run < RUNS; run++) {
      const prepared = await request();
      const answer = await counting.run(true, () => gateway.answer(prepared));
      if ((answer.statusCode ?? 200) >= 400) throw new Error(`cost model request: ${answer.statusCode} ${answer.body}`);
      responseBytes += httpResponseBytes(answer);
    }
  } finally {
    dynamoDb().middlewareStack.remove('consumedCapacity');
  }
  const lambda = await warmCalls();
  return {
    lambdaMs: lambda.ms,
    logBytes: lambda.logBytes,
    logLines: lambda.logLines,
    readUnits: units.read / RUNS,
    writeUnits: units.write / RUNS,
    indexWriteUnits: units.index / RUNS,
    responseBytes: Math.round(responseBytes / RUNS),
  };
}

interface Capacity {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
  LocalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/** The bytes API Gateway sends back: status line, the headers (its own included), the body. */
function httpResponseBytes(answer: { statusCode?: number; headers?: Record<string, unknown>; body?: string }): number {
  const body = Buffer.byteLength(answer.body ?? '');
  const headers = {
    ...answer.headers,
    date: new Date().toUTCString(),
    'content-length': String(body),
    connection: 'keep-alive',
  };
  const head = Object.entries(headers).reduce((sum, [name, value]) => sum + name.length + String(value).length + 4, 'HTTP/1.1 200 OK\r\n'.length + 2);
  return head + body;
}

/**
 * The access log line API Gateway writes per request (infra/stack.ts API_ACCESS_LOG_FORMAT), for a
 * GET by id with realistic values: the bytes CloudWatch Logs ingests for it.
 */
export function accessLogLineBytes(): number {
  const values: Record<string, string> = {
    '$context.requestId': 'Ab1CdEfGhIjKLm0=',
    '$context.requestTime': '23/Nov/2026:09:32:00 +0000',
    '$context.requestTimeEpoch': '1795426320000',
    '$context.identity.sourceIp': '203.0.113.10',
    '$context.identity.userAgent': 'commercetools-sdk-javascript-v3/5.0.0 node.js/22.11.0 linux-x64',
    '$context.httpMethod': 'GET',
    '$context.path': '/my-project/resource/8f1c2a4e-1b2c-4d3e-9f8a-0123456789ab',
    '$context.routeKey': 'GET /{projectKey}/resource/{id}',
    '$context.status': '200',
    '$context.responseLength': '612',
    '$context.responseLatency': '14',
    '$context.integrationLatency': '11',
    '$context.authorizer.clientId': 'my-client-app',
    '$context.authorizer.error': '-',
    '$context.integrationErrorMessage': '-',
    '$context.error.message': '-',
  };
  const line = JSON.stringify(
    Object.fromEntries(
      Object.entries(API_ACCESS_LOG_FORMAT).map(([name, variable]) => {
        if (!(variable in values)) throw new Error(`bench/cost.ts has no realistic value for ${variable}`);
        return [name, values[variable]];
      }),
    ),
  );
  return Buffer.byteLength(line);
}

function tracingPerMillion(tracing: TracingOption): number {
  if (tracing.mode === 'off') return 0;
  const rps = ASSUMPTIONS.requestsPerSecond;
  const sampled = Math.min(1, (tracing.reservoirPerSecond + tracing.fixedRate * Math.max(0, rps - tracing.reservoirPerSecond)) / rps);
  return sampled * PRICES.xRayTracesRecordedPerMillion;
}

function describeTracing(tracing: TracingOption): string {
  return tracing.mode === 'off' ? 'off' : `sampled ${tracing.reservoirPerSecond}/s + ${tracing.fixedRate * 100}% at ${ASSUMPTIONS.requestsPerSecond} req/s`;
}

