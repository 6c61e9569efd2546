/** The few rules on how field values compare in `where` predicates and `sort` expressions: reading a document's properties, and reducing values to what they compare by. */
import type { ScalarKind } from '../language/field-model';
import { unknownKind } from '../unknown-kind';

/** A field value reduced to what it compares by: date-times become epoch milliseconds. */
export type Comparable = string | number | boolean;

export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of a document's own property; undefined when absent or when `target` is no object. */
export function propertyOf(target: unknown, name: string): unknown {
  return isObject(target) && Object.hasOwn(target, name) ? target[name] : undefined;
}

/** JSON null and an absent property both mean "no value". */
export function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * `raw` as a Comparable of `kind`, or undefined when it is not a value of that kind (absent,
 * null, or a document that does not follow its schema): such a value never matches.
 */
export function comparableValue(kind: ScalarKind, raw: unknown): Comparable | undefined {
  switch (kind) {
    case 'datetime':
      return typeof raw === 'string' ? instantOf(raw) : undefined;
    case 'number':
      return typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
    case 'string':
    case 'boolean':
      return typeof raw === kind ? (raw as Comparable) : undefined;
    default:
      return unknownKind(kind, 'field kind');
  }
}

/** Total order within one kind: numbers and instants numerically, strings by UTF-16 code unit, false < true. */
export function compareValues(left: Comparable, right: Comparable): number {
  if (left < right) return -1;
  return left > right ? 1 : 0;
}

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Epoch milliseconds of an ISO 8601 date or date-time, or undefined when `text` is not one.
 * Stricter than Date.parse, which takes "2024-02-30" as March 1st and many non-ISO forms.
 * A date-time without a zone is read as UTC, never as the server's local time.
 */
export function instantOf(text: string): number | undefined {
  const match = ISO_8601.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour = '0', minute = '0', second = '0', zone] = match;
  if (!isCalendarDate(Number(year), Number(month), Number(day))) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const hasTime = match[4] !== undefined;
  const millis = Date.parse(hasTime && zone === undefined ? `${text}Z` : text);
  return Number.isFinite(millis) ? millis : undefined;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth;
}
