/**
 * The `default` of a switch over a union of kinds: `value` is what was switched on (the kind, or
 * the object whose `kind` or `type` names it). Typed `never`, it does not compile while a kind of
 * the union is unhandled; a value outside the union that arrives anyway (a stored item, a cast)
 * throws instead of passing as handled.
 */
export function unknownKind(value: never, what: string): never {
  const named = value as unknown;
  const kind = typeof named === 'object' && named !== null ? ((named as { kind?: unknown }).kind ?? (named as { type?: unknown }).type) : named;
  throw new Error(`Unknown ${what}: ${JSON.stringify(kind)}`);
}
