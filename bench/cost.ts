import { MetricUnit, Metrics } from '@aws-lambda-powertools/metrics';
import { dynamoDb } from '../shared/composition-root';
import type { LocalStack } from '../local/stack';

/**
 * AWS list prices (us-east-1, on-demand, read 2026-11) used by the cost model. Change them here.
 * DynamoDB on-demand: $0.125 per million read request units, $0.625 per million write units.
 */
export const PRICES = {
  httpApiPerMillion: 1.0,
  lambdaRequestsPerMillion: 0.2,
  lambdaArmPerGbSecond: 0.0000133334,
  dynamoDbReadUnitPerMillion: 0.125,
  dynamoDbWriteUnitPerMillion: 0.625,
  cloudWatchLogsPerGb: 0.5,
  s3PutPerThousand: 0.005,
};

/** The memory every function gets (infra/constructs/endpoint-function.ts). */
export const FUNCTION_MEMORY_MB = 256;

interface OperationCost {
  handlerMs: number;
  readUnits: number;
  writeUnits: number;
}

/**
 * Cost per million calls of an 80/20 read/write mix (GET by id / update with actions), from what
 * this run measures: DynamoDB's own ConsumedCapacity for each call (ReturnConsumedCapacity=TOTAL
 * added by a middleware), the handler time in this process as the Lambda duration, and the size
 * of the EMF metrics line every invocation logs. The authorizer's verdict is cached per token
 * (300 s), so it adds nothing per call.
 */
export async function costPerMillion(stack: LocalStack, token: string, project: string) {
  let units = { read: 0, write: 0 };
  dynamoDb().middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: Capacity | Capacity[] };
      const consumed = [output.ConsumedCapacity ?? []].flat().reduce((sum, capacity) => sum + (capacity.CapacityUnits ?? 0), 0);
      if (/^(GetItem|Query|Scan|BatchGetItem|TransactGetItems)Command$/.test(String(context.commandName))) units.read += consumed;
      else units.write += consumed;
      return result;
    },
    { step: 'initialize', name: 'consumedCapacity' },
  );
  try {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${stack.url}/${project}/resource`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ objectTypeProperty: { arrayOfIntExample: [1, 2, 3], arrayOfStringExample: ['cost', 'model'] } }),
    }).then((response) => response.json() as Promise<{ id: string; version: number }>);

    const sample = async (call: (index: number) => Promise<Response>, runs = 50): Promise<OperationCost> => {
      units = { read: 0, write: 0 };
      const durations: number[] = [];
      for (let index = 0; index < runs; index++) {
        const started = performance.now();
        await (await call(index)).arrayBuffer();
        durations.push(performance.now() - started);
      }
      durations.sort((a, b) => a - b);
      return { handlerMs: round(durations[Math.floor(runs / 2)]!), readUnits: units.read / runs, writeUnits: units.write / runs };
    };
    const read = await sample(() => fetch(`${stack.url}/${project}/resource/${created.id}`, { headers }));
    const write = await sample((index) =>
      fetch(`${stack.url}/${project}/resource/${created.id}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ version: created.version + index, actions: [{ action: 'changeSomeProperty', someProperty: `v${index}` }] }),
      }),
    );

    const emfBytes = emfLineBytes();
    const mix = (pick: (operation: OperationCost) => number) => 0.8 * pick(read) + 0.2 * pick(write);
    const lambdaSeconds = mix((operation) => Math.ceil(operation.handlerMs)) / 1000;
    const lines = {
      apiGateway: PRICES.httpApiPerMillion,
      lambdaRequests: PRICES.lambdaRequestsPerMillion,
      lambdaCompute: 1e6 * lambdaSeconds * (FUNCTION_MEMORY_MB / 1024) * PRICES.lambdaArmPerGbSecond,
      dynamoDbReads: mix((operation) => operation.readUnits) * PRICES.dynamoDbReadUnitPerMillion,
      dynamoDbWrites: mix((operation) => operation.writeUnits) * PRICES.dynamoDbWriteUnitPerMillion,
      cloudWatchLogs: (1e6 * emfBytes / 1024 ** 3) * PRICES.cloudWatchLogsPerGb,
    };
    const total = Object.values(lines).reduce((sum, value) => sum + value, 0);
    return {
      mix: '80% GET by id, 20% update (changeSomeProperty)',
      perOperation: { read, write },
      emfBytesPerCall: emfBytes,
      functionMemoryMb: FUNCTION_MEMORY_MB,
      memoryRationale:
        'Every function gets 256 MB: the handlers need well under 100 MB, but Lambda gives CPU in proportion to memory and ' +
        'cold starts are CPU-bound module initialisation (see bundles); at 256 MB compute is about $0.02 per million calls, ' +
        'so halving memory would save cents and double cold-start and handler time.',
      usdPerMillion: Object.fromEntries(Object.entries({ ...lines, total }).map(([name, value]) => [name, round(value, 3)])),
      imagesNote: `an image upload adds one S3 PUT: $${PRICES.s3PutPerThousand * 1000} per million uploads, plus storage`,
    };
  } finally {
    dynamoDb().middlewareStack.remove('consumedCapacity');
  }
}

interface Capacity {
  CapacityUnits?: number;
}

/** The size of the EMF line one invocation writes (the per-route metrics of observe.ts). */
function emfLineBytes(): number {
  const metrics = new Metrics({ namespace: 'GenericResourceService', serviceName: 'generic-resource-service' });
  metrics.addDimension('route', 'POST /{projectKey}/resource/{id}');
  metrics.addMetric('Latency', MetricUnit.Milliseconds, 12);
  // CloudWatch Logs bills 26 bytes of overhead per event. Powertools writes the line to stdout as
  // is; the platform's START/END/REPORT lines are off (systemLogLevel WARN).
  return Buffer.byteLength(JSON.stringify(metrics.serializeMetrics())) + 26;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
