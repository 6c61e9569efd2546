import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { functions as declaredFunctions } from '../functions/endpoints';
import { changeBatch, invocations, type InvocationContext } from './function-invocations';
import { buildFunction, carries, recordEvent, runInFreshProcess, type BuiltFunction } from './lambda-process';
import { node22 } from './node22';

/** Every Lambda function the stack deploys, from the list the stack takes them from (functions/endpoints.ts). */
export const functionNames = (): string[] => declaredFunctions.map((declaration) => declaration.name).sort();
/** A reader of the table's stream is no endpoint: its first event is a batch of one change (changeBatch). */
const readsStream = (name: string) => declaredFunctions.some((declaration) => declaration.name === name && declaration.tableStream !== undefined);

export interface BundleFigures {
  bytes: number;
  /** Median time for a fresh Node.js 22 process to import the bundle (module initialisation). */
  initMs: number;
  /** Median time of the first invocation after the import, against DynamoDB Local (and the S3 emulator). */
  firstCallMs: number;
  /** Median of import + first call, per process: the cold start. */
  coldStartMs: number;
  /** Bytes of the bundle by origin. */
  carries: Record<string, number>;
}

export const COLD_START_RUNS = 11;

/**
 * Cold starts of every function: its bundle, built with the options the CDK stack uses
 * (infra/bundling.ts), imported by fresh Node.js 22 processes that each invoke it once with the
 * API Gateway event of a realistic request, round after round over all of them. Median of
 * COLD_START_RUNS processes, next to an empty bundle's and one holding only the DynamoDB client (the goal's yardstick).
 */
export async function measureBundles(context: InvocationContext) {
  const node = node22();
  const outDir = await mkdtemp(join(tmpdir(), 'grs-bundles-'));
  try {
    const emptyEntry = join(outDir, 'empty.ts');
    await writeFile(emptyEntry, 'export const handler = async () => ({ statusCode: 200 });\n');
    const empty = await buildFunction('empty', outDir, emptyEntry);
    const dynamoDbClient = await buildFunction('dynamodb-client', outDir, new URL('./dynamodb-client-only.ts', import.meta.url).pathname);
    // BENCH_FUNCTIONS=a,b measures only those (while working on them).
    const only = process.env.BENCH_FUNCTIONS?.split(',');
    const names = functionNames().filter((candidate) => !only || only.includes(candidate));
    const built = new Map<string, BuiltFunction>();
    for (const name of names) {
      if (!invocations[name] && !readsStream(name)) throw new Error(`bench/function-invocations.ts has no realistic request for the function ${name}`);
      built.set(name, await buildFunction(name, outDir));
    }

    // Round robin: each round starts every function (and the empty bundle) once, so that the
    // machine's load, which drifts by tens of percent within minutes here, weighs on every
    // function alike instead of on those measured in a slow minute.
    const emptyRuns: { initMs: number }[] = [];
    const dynamoDbClientRuns: { initMs: number }[] = [];
    const runs = new Map<string, { initMs: number; firstCallMs: number }[]>(names.map((name) => [name, []]));
    for (let run = 0; run < COLD_START_RUNS; run++) {
      emptyRuns.push(await runInFreshProcess(node, empty, 'empty', [{}], outDir));
      dynamoDbClientRuns.push(await runInFreshProcess(node, dynamoDbClient, 'dynamodb-client', [{}], outDir));
      for (const name of names) {
        const invocation = invocations[name];
        const event = invocation ? await recordEvent(name, await invocation.request(context)) : changeBatch(context);
        const { initMs, calls } = await runInFreshProcess(node, built.get(name)!, name, [event], outDir);
        const [call] = calls as [(typeof calls)[number]];
        const ok = !invocation ? call.statusCode === undefined : name === 'authorizer' ? call.authenticated === 'true' : call.statusCode === invocation.expect;
        if (!ok) throw new Error(`${name} answered ${call.statusCode ?? call.authenticated} (expected ${invocation?.expect}): ${call.body}`);
        runs.get(name)!.push({ initMs, firstCallMs: call.ms });
      }
    }

    const functions: Record<string, BundleFigures> = {};
    for (const name of names) {
      const measured = runs.get(name)!;
      const { bytes, metafile } = built.get(name)!;
      functions[name] = {
        bytes,
        initMs: median(measured.map((run) => run.initMs)),
        firstCallMs: median(measured.map((run) => run.firstCallMs)),
        coldStartMs: median(measured.map((run) => run.initMs + run.firstCallMs)),
        carries: carries(metafile),
      };
      console.log(`    ${name}: ${(bytes / 1024).toFixed(1)} KB, ${functions[name].initMs} + ${functions[name].firstCallMs} ms`);
    }
    return {
      node: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(),
      runs: COLD_START_RUNS,
      emptyInitMs: median(emptyRuns.map((run) => run.initMs)),
      dynamoDbClientInitMs: median(dynamoDbClientRuns.map((run) => run.initMs)),
      functions,
    };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
}
