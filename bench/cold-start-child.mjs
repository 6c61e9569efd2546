// Run by bench/lambda-process.ts in a fresh Node.js 22 process, as Lambda's runtime would: import
// one function's bundle, then invoke its handler with recorded API Gateway events, one after the
// other. Writes the times, the answers and the bytes each invocation logged to the result file.
import { Buffer } from 'node:buffer';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const [bundle, resultFile, ...eventFiles] = process.argv.slice(2);
const events = eventFiles.map((file) => JSON.parse(readFileSync(file, 'utf8')));
const deadline = Date.now() + 10_000;
const context = {
  callbackWaitsForEmptyEventLoop: false,
  functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
  memoryLimitInMB: '256',
  awsRequestId: '00000000-0000-4000-8000-000000000000',
  logGroupName: `/aws/lambda/${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
  logStreamName: 'bench',
  getRemainingTimeInMillis: () => deadline - Date.now(),
};

// What the function writes to stdout/stderr is what CloudWatch Logs ingests: count it per call.
let logged = { bytes: 0, lines: 0 };
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  stream.write = (chunk, ...rest) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    logged.bytes += Buffer.byteLength(text);
    logged.lines += text.split('\n').filter(Boolean).length;
    return write(chunk, ...rest);
  };
}

// The local engines speak http where AWS speaks https: the SDK then imports node:http on its
// first call, and that import (its ESM facade loads undici, ~7 ms) never happens in Lambda.
await import('node:http');

const started = performance.now();
const { handler } = await import(pathToFileURL(bundle).href);
const initMs = performance.now() - started;
const calls = [];
for (const event of events) {
  logged = { bytes: 0, lines: 0 };
  const callStarted = performance.now();
  const answer = await handler(event, context);
  // Lambda's runtime serializes the result to send it: part of the invocation's memory.
  JSON.stringify(answer);
  calls.push({
    ms: performance.now() - callStarted,
    statusCode: answer?.statusCode,
    authenticated: answer?.context?.authenticated,
    body: typeof answer?.body === 'string' ? answer.body.slice(0, 300) : undefined,
    logBytes: logged.bytes,
    logLines: logged.lines,
  });
}

// Peak resident memory of the process, and the heap V8 grew to (what --max-old-space-size bounds).
const memory = { peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), heapMb: Math.round(v8.getHeapStatistics().total_heap_size / 2 ** 20) };
writeFileSync(resultFile, JSON.stringify({ initMs, calls, memory }));
// Lambda freezes the instance after the answer; open sockets must not keep this process alive.
process.exit(0);
