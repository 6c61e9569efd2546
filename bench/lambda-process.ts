import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { basename, join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { functionEntry, lambdaEsbuildOptions, projectRoot } from '../infra/bundling';
import { createGateway } from '../local/gateway';
import type { AuthorizerHandler, GatewayRequest } from '../local/lambda-events';
import { endpoints, fallback, functions } from '../functions/endpoints';

/**
 * Lambda functions as the stack deploys them, run the way Lambda runs them: the bundle built with
 * the stack's own esbuild options, imported by a fresh Node.js 22 process that gets the stack's
 * environment (pointed at the local engines) and API Gateway's events.
 */

export interface BuiltFunction {
  outfile: string;
  bytes: number;
  metafile: Metafile;
}

export async function buildFunction(name: string, outDir: string, entry = functionEntry(name)): Promise<BuiltFunction> {
  const outfile = join(outDir, `${name}.mjs`);
  const result = await build({ ...lambdaEsbuildOptions(entry, outfile), metafile: true, logLevel: 'silent' });
  // The files a function declares beside its bundle (the stack copies them there: infra/files-beside-bundle.ts).
  for (const file of functions.find((declaration) => declaration.name === name)?.filesBesideBundle ?? []) {
    copyFileSync(join(projectRoot, file), join(outDir, basename(file)));
  }
  return { outfile, bytes: Object.values(result.metafile.outputs)[0]!.bytes, metafile: result.metafile };
}

/**
 * The event API Gateway would send the function for this request, made by the local gateway
 * (which builds the same payload-2.0 events and runs the real authorizer for the context).
 * For `authorizer`, the authorizer's own event.
 */
export async function recordEvent(name: string, request: GatewayRequest): Promise<unknown> {
  const authorizer = (await import('../functions/authorizer/handler')).handler as AuthorizerHandler;
  let recorded: unknown;
  const gateway = createGateway({
    endpoints,
    fallback,
    loadHandler: async (handler) => async (event) => {
      if (handler.name === name) recorded = event;
      return { statusCode: 204 };
    },
    authorizer: async (event, lambdaContext) => {
      if (name === 'authorizer') recorded = event;
      return authorizer(event, lambdaContext);
    },
  });
  await gateway.answer(request);
  if (!recorded) throw new Error(`The request for ${name} did not reach it: ${request.method} ${request.url}`);
  return recorded;
}

export interface Invoked {
  ms: number;
  statusCode?: number;
  authenticated?: string;
  body?: string;
  /** What the invocation wrote to stdout and stderr: CloudWatch Logs ingests it. */
  logBytes: number;
  logLines: number;
}

/**
 * One fresh process: import the bundle, then invoke it with each event in turn. Asynchronous: the
 * S3 emulator runs in this process and must keep answering.
 */
export async function runInFreshProcess(
  node: string,
  built: BuiltFunction,
  name: string,
  events: unknown[],
  outDir: string,
  nodeFlags: string[] = [],
): Promise<{ initMs: number; calls: Invoked[]; memory: { peakRssMb: number; heapMb: number } }> {
  const files = events.map((event, index) => {
    const file = join(outDir, `${name}.event-${index}.json`);
    writeFileSync(file, JSON.stringify(event));
    return file;
  });
  const resultFile = join(outDir, `${name}.result.json`);
  // BENCH_CPU_PROF=<folder> writes a CPU profile of every process there (where does a cold start go?).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`, '--cpu-prof-interval=100'] : [];
  const { stdout } = await promisify(execFile)(node, [...nodeFlags, ...profile, new URL('./cold-start-child.mjs', import.meta.url).pathname, built.outfile, resultFile, ...files], {
    env: lambdaEnvironment(name),
  });
  if (process.env.BENCH_VERBOSE) console.log(stdout); // what the function logged
  return JSON.parse(readFileSync(resultFile, 'utf8')) as Awaited<ReturnType<typeof runInFreshProcess>>;
}

/** What the stack sets for every function (infra/stack.ts), pointed at the local engines, plus Lambda's own variables. */
function lambdaEnvironment(name: string): NodeJS.ProcessEnv {
  const pick = (names: string[]) => Object.fromEntries(names.filter((key) => process.env[key] !== undefined).map((key) => [key, process.env[key]]));
  return {
    ...pick(['PATH', 'TABLE_NAME', 'TOKEN_ISSUER', 'TOKEN_AUDIENCE', 'SIGNING_KEY_FILE', 'IMAGES_BUCKET', 'IMAGE_UPLOADS_BUCKET', 'IMAGE_BASE_URL', 'LAST_MODIFIED_INDEX']),
    ...pick(['SEARCH_DATABASE_URL', 'SEARCH_INDEX_FAILURES_BUCKET']),
    ...pick(['AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_ENDPOINT_URL_DYNAMODB', 'AWS_ENDPOINT_URL_S3']),
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '256',
    AWS_LAMBDA_LOG_FORMAT: 'JSON',
    AWS_LAMBDA_LOG_LEVEL: 'INFO',
  };
}

/** Bundle bytes by where they come from (esbuild's metafile). */
export function carries(metafile: Metafile): Record<string, number> {
  const groups: Record<string, number> = {};
  for (const [file, input] of Object.entries(Object.values(metafile.outputs)[0]!.inputs)) {
    const group = originOf(file);
    groups[group] = (groups[group] ?? 0) + input.bytesInOutput;
  }
  return Object.fromEntries(Object.entries(groups).sort((a, b) => b[1] - a[1]));
}

function originOf(file: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
  if (!pkg) return 'own code';
  if (/^@(aws-sdk|smithy|aws)\//.test(pkg) || ['mnemonist', 'obliterator', 'tslib', 'fast-xml-parser', 'strnum', 'bowser'].includes(pkg)) return 'AWS SDK';
  if (pkg.startsWith('@middy/')) return 'middy';
  return pkg;
}
