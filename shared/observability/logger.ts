/**
 * The service's one logger: one compact JSON line per event, nothing added. A request's record is
 * `requestLine` (shared/http/middleware/observe.ts); warnings and errors carry the keys of the
 * request being served, so a failure is found by its correlation id. Never a token, a secret or a
 * body: callers pass names and ids only, and errors are reduced to their name, message and cause.
 *
 * Lines go to `process.stdout.write` on purpose. In Lambda's JSON log format the runtime wraps
 * every `console.*` call in `{"timestamp","level","requestId","message"}` (≈ 120 B more per line,
 * paid as log ingestion on every request), while a line the function writes to stdout that is
 * already JSON reaches CloudWatch as written: Lambda does not encode it again, takes its level from
 * `level` (INFO when missing) and stamps the event with the time it received it (docs/design.md,
 * "Observability of a request"). On Linux, writes to a pipe are synchronous: nothing is lost when
 * Lambda freezes the instance after the answer.
 */

const LEVELS = { TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4, FATAL: 5 } as const;
export type LogLevel = keyof typeof LEVELS;
type Fields = Record<string, unknown>;

/** What a request line says, under short, readable keys: what an operator asks of one request, and what the stack's metric filters count (infra/constructs/monitoring.ts). */
export interface RequestRecord {
  route: string;
  status: number;
  /** Milliseconds from the correlation id being settled to the answer. */
  ms: number;
  project?: string;
  clientId?: string;
  correlationId?: string;
  /** The commercetools code of a refused request (its first error), e.g. `QueryTimedOut`. */
  code?: string;
}

/** The keys of the request being served: Lambda serves one request at a time per instance. */
let requestKeys: Fields = {};

/**
 * The application log level Lambda is configured with (`applicationLogLevelV2` sets
 * AWS_LAMBDA_LOG_LEVEL); INFO when unset. Lambda drops lines below it anyway: checking first
 * saves building them.
 */
function enabled(level: LogLevel): boolean {
  const configured = process.env.AWS_LAMBDA_LOG_LEVEL?.toUpperCase() as LogLevel | undefined;
  return LEVELS[level] >= LEVELS[configured && configured in LEVELS ? configured : 'INFO'];
}

function write(level: LogLevel, fields: Fields): void {
  if (!enabled(level)) return;
  process.stdout.write(`${JSON.stringify({ level, ...fields }, withErrors)}\n`);
}

/** An Error logs as its name, message, the frame that threw, and its cause: what an operator needs, no more. */
function withErrors(_key: string, value: unknown): unknown {
  return value instanceof Error ? describeError(value) : value;
}

export function describeError(error: Error, depth = 0): Fields {
  const frame = error.stack?.split('\n').find((line) => line.trimStart().startsWith('at '))?.trim();
  return {
    name: error.name,
    message: error.message,
    ...(frame ? { at: frame.slice(3) } : {}),
    ...(error.cause instanceof Error && depth < 3 ? { cause: describeError(error.cause, depth + 1) } : {}),
  };
}

export const logger = {
  /** The one line a request leaves: route, status, latency, project, client id, correlation id. */
  requestLine(record: RequestRecord): void {
    write('INFO', { ...record });
  },
  info(msg: string, fields: Fields = {}): void {
    write('INFO', { msg, ...requestKeys, ...fields });
  },
  warn(msg: string, fields: Fields = {}): void {
    write('WARN', { msg, ...requestKeys, ...fields });
  },
  error(msg: string, fields: Fields = {}): void {
    write('ERROR', { msg, ...requestKeys, ...fields });
  },
  /** Names the request being served in every warning and error it leaves (observe.ts). */
  setRequestKeys(keys: Fields): void {
    requestKeys = Object.fromEntries(Object.entries(keys).filter(([, value]) => value !== undefined));
  },
  clearRequestKeys(): void {
    requestKeys = {};
  },
};
