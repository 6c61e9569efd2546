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
  durations.sort((a, b) => a - b);
  const at = (quantile: number) => round(durations[Math.min(durations.length - 1, Math.ceil(quantile * durations.length) - 1)]!);
  return { runs, p50Ms: at(0.5), p95Ms: at(0.95), meanMs: round(durations.reduce((sum, value) => sum + value, 0) / runs) };
}

const round = (value: number) => Math.round(value * 10) / 10;
