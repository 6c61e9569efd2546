/**
 * The search index follows the table's stream, about a second behind locally: a test that wrote
 * resources waits until a search sees them (never a blind sleep).
 */
export async function untilSearchable(totalOf: () => Promise<number | undefined>, expected: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen: number | undefined;
  while (Date.now() < deadline) {
    seen = await totalOf();
    if (seen === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The search index did not catch up within ${timeoutMs} ms: it has ${seen} resources, expected ${expected}`);
}
