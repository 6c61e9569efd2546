export interface Measurement {
  runs: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
}

/** Runs `operation` a few times to warm up, then `runs` times, and reports latency percentiles. */
export async function measure(operation: () => Promise<unknown>, runs = 30, warmup = 3): Promise<Measurement> {
  for (let index = 0; index < warmup; index++) await operation();
  const durations: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    await operation();
    durations.push(performance.now() - started);
  }
  return percentiles(durations);
}

/** p50, p95 and mean of durations in milliseconds, to 0.01 ms (ratios of small latencies need it). */
export function percentiles(durations: readonly number[]): Measurement {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (quantile: number) => round(sorted[Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)]!);
  return { runs: sorted.length, p50Ms: at(0.5), p95Ms: at(0.95), meanMs: round(sorted.reduce((sum, value) => sum + value, 0) / sorted.length) };
}

const round = (value: number) => Math.round(value * 100) / 100;
