import { invalidInput } from './errors';

/**
 * Query parameters read from the raw query string, because API Gateway's payload 2.0 joins
 * repeated keys with commas in `queryStringParameters` and commas inside values must survive.
 * `+` is a space, repeated keys stay repeated, and typed getters refuse values of the wrong type
 * with a 400 naming the parameter — never a silent default.
 */
export class QueryParameters {
  readonly entries: ReadonlyMap<string, readonly string[]>;

  constructor(rawQueryString: string | undefined) {
    const entries = new Map<string, string[]>();
    for (const pair of (rawQueryString ?? '').split('&')) {
      if (pair === '') continue;
      const separator = pair.indexOf('=');
      const name = decode(separator === -1 ? pair : pair.slice(0, separator));
      const value = separator === -1 ? '' : decode(pair.slice(separator + 1));
      entries.set(name, [...(entries.get(name) ?? []), value]);
    }
    this.entries = entries;
  }

  all(name: string): readonly string[] {
    return this.entries.get(name) ?? [];
  }

  /** The value of a parameter that may appear at most once. */
  string(name: string): string | undefined {
    const values = this.all(name);
    if (values.length > 1) throw invalidInput(`The query parameter '${name}' may be given only once.`);
    return values[0];
  }

  number(name: string, bounds: { min?: number; max?: number; integer?: boolean } = {}): number | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const value = bounds.integer ? parseInteger(text) : parseDecimal(text);
    const kind = bounds.integer ? 'an integer' : 'a number';
    if (!Number.isFinite(value) || (bounds.integer && !Number.isInteger(value))) {
      throw invalidInput(`The query parameter '${name}' must be ${kind}, got '${text}'.`);
    }
    if ((bounds.min !== undefined && value < bounds.min) || (bounds.max !== undefined && value > bounds.max)) {
      throw invalidInput(`The query parameter '${name}' must be ${kind} from ${bounds.min ?? '-∞'} to ${bounds.max ?? '∞'}, got '${text}'.`);
    }
    return value;
  }

  boolean(name: string): boolean | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    if (text === 'true') return true;
    if (text === 'false') return false;
    throw invalidInput(`The query parameter '${name}' must be true or false, got '${text}'.`);
  }

  /** Parameters whose names match a pattern, e.g. `var.<name>` or `text.<locale>`. */
  matching(pattern: RegExp): [string, readonly string[]][] {
    return [...this.entries].filter(([name]) => pattern.test(name));
  }
}

/** A plain decimal number (`-12`, `1.5`, `2e3`); hex, octal, binary and padding are not numbers here. */
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

export function parseDecimal(text: string): number {
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw invalidInput(`The query string is not correctly percent-encoded near '${text.slice(0, 40)}'.`);
  }
}
