import { InvalidInputError } from './errors';

/**
 * A request's query parameters as a use case receives them: each name with its values in the
 * order given, repeated names kept. The HTTP adapter parses them from the raw query string
 * (shared/http/query-parameters.ts); the typed readers refuse a value of the wrong type with
 * InvalidInput naming the parameter — never a silent default.
 */
export class QueryParameters {
  constructor(readonly entries: ReadonlyMap<string, readonly string[]> = new Map()) {}

  all(name: string): readonly string[] {
    return this.entries.get(name) ?? [];
  }

  /** The value of a parameter that may appear at most once. */
  string(name: string): string | undefined {
    const values = this.all(name);
    if (values.length > 1) throw new InvalidInputError(`The query parameter '${name}' may be given only once.`);
    return values[0];
  }

  number(name: string, bounds: { min?: number; max?: number; integer?: boolean } = {}): number | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const value = bounds.integer ? parseInteger(text) : parseDecimal(text);
    const kind = bounds.integer ? 'an integer' : 'a number';
    if (!Number.isFinite(value) || (bounds.integer && !Number.isInteger(value))) {
      throw new InvalidInputError(`The query parameter '${name}' must be ${kind}${rangeText(bounds)}, got '${text}'.`);
    }
    if ((bounds.min !== undefined && value < bounds.min) || (bounds.max !== undefined && value > bounds.max)) {
      throw new InvalidInputError(`The query parameter '${name}' must be ${kind}${rangeText(bounds)}, got '${text}'.`);
    }
    return value;
  }

  boolean(name: string): boolean | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    if (text === 'true') return true;
    if (text === 'false') return false;
    throw new InvalidInputError(`The query parameter '${name}' must be true or false, got '${text}'.`);
  }

  /** Parameters whose names match a pattern, e.g. `var.<name>` or `text.<locale>`. */
  matching(pattern: RegExp): [string, readonly string[]][] {
    return [...this.entries].filter(([name]) => pattern.test(name));
  }
}

/**
 * ` from <min> to <max>` for a bounded parameter ('' when it has no bounds). An integer's open
 * end is the largest integer read exactly (2^53 − 1), not ∞: a longer one is refused, and the
 * message must not say a refused value was in range.
 */
export function rangeText(bounds: { min?: number; max?: number; integer?: boolean }): string {
  if (bounds.min === undefined && bounds.max === undefined) return '';
  const open = (sign: '' | '-') => (bounds.integer ? `${sign}${Number.MAX_SAFE_INTEGER}` : `${sign}∞`);
  return ` from ${bounds.min ?? open('-')} to ${bounds.max ?? open('')}`;
}

/**
 * An integer as written in decimal digits (an optional sign, a fraction of zeros at most as in
 * `3.0`, no exponent) that a number holds exactly (|n| ≤ 2^53 − 1); NaN for anything else —
 * `9007199254740993` would silently become …992, and `1e20` is no integer anyone typed on purpose.
 */
export function parseInteger(text: string): number {
  if (!/^[+-]?\d{1,16}(\.0*)?$/.test(text)) return Number.NaN;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : Number.NaN;
}

/** A plain decimal number (`-12`, `1.5`, `2e3`); hex, octal, binary and padding are not numbers here. */
export function parseDecimal(text: string): number {
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN;
}
