import * as z from 'zod/mini';
import { valuesAt, type DocumentPredicate } from './document-values';
import type { ExpressionSource } from './expression-lexer';
import {
  parseFacetExpression,
  type Bound,
  type Condition,
  type FacetExpression,
  type RangeItem,
  type Scalar,
} from './expression-parser';
import type { Field, FieldCatalog } from './field-catalog';
import { checkCondition, conditionPredicate, isOfKind, resolveField } from './filter-expression';
import { malformedParameter } from './search-error';

/**
 * Facets, counted over the documents the caller feeds in one by one. Three forms:
 *
 *   facet=<field>                              term facet: documents per distinct value
 *   facet=<field>:range(0 to 100), (100 to *)  range facet: statistics per range
 *   facet=<field>:<filter condition>           filter facet: documents matching the condition
 *
 * each optionally followed by `as <name>`, the key of the facet in the result (by default the
 * expression as given). Memory grows with the distinct values of a term facet, never with the
 * number of documents.
 */

const FacetValue = z.union([z.number(), z.string()]);

export const FacetTerm = z.object({
  term: FacetValue,
  count: z.number().check(z.int()),
});
export type FacetTerm = z.infer<typeof FacetTerm>;

export const TermFacetResult = z
  .object({
    type: z.literal('terms'),
    dataType: z.enum(['number', 'text']),
    missing: z.number().check(z.int(), z.meta({ description: 'Documents without a value for the field' })),
    total: z.number().check(z.int(), z.meta({ description: 'The sum of the term counts (a document counts once per distinct value it holds)' })),
    other: z.number().check(z.int(), z.meta({ description: 'Counts of terms left out; every term is listed, so always 0' })),
    terms: z.array(FacetTerm).check(z.meta({ description: 'By count, highest first; equal counts by term, ascending' })),
  })
  .check(z.meta({ description: '`facet=<field>`: documents per distinct value' }));
export type TermFacetResult = z.infer<typeof TermFacetResult>;

export const FacetRange = z.object({
  type: z.literal('double'),
  from: z.number().check(z.meta({ description: "0 and '' (fromStr) for an open end, as commercetools writes them" })),
  fromStr: z.string(),
  to: z.number().check(z.meta({ description: "0 and '' (toStr) for an open end" })),
  toStr: z.string(),
  count: z.number().check(z.int(), z.meta({ description: 'Documents with at least one value in the range' })),
  totalCount: z.number().check(z.int(), z.meta({ description: 'Values in the range, over all documents' })),
  total: z.number().check(z.meta({ description: 'Sum of those values; 0 when there are none (so are min, max and mean)' })),
  min: z.number(),
  max: z.number(),
  mean: z.number(),
});
export type FacetRange = z.infer<typeof FacetRange>;

export const RangeFacetResult = z
  .object({
    type: z.literal('range'),
    dataType: z.literal('number'),
    ranges: z.array(FacetRange),
  })
  .check(z.meta({ description: '`facet=<field>:range(0 to 100), (100 to *)`: statistics per range (from included, to excluded)' }));
export type RangeFacetResult = z.infer<typeof RangeFacetResult>;

export const FilterFacetResult = z
  .object({
    type: z.literal('filter'),
    count: z.number().check(z.int(), z.meta({ description: 'Documents matching the condition' })),
  })
  .check(z.meta({ description: '`facet=<field>:<filter condition>`: documents matching the condition' }));
export type FilterFacetResult = z.infer<typeof FilterFacetResult>;

/** One facet of a search answer, keyed in `facets` by its `as` name or its expression. */
export const FacetResult = z.discriminatedUnion('type', [TermFacetResult, RangeFacetResult, FilterFacetResult]);
export type FacetResult = z.infer<typeof FacetResult>;

export interface FacetAccumulator {
  add(doc: unknown): void;
  result(): Record<string, FacetResult>;
}

/** One facet's running counts. */
interface FacetCounter {
  add(doc: unknown): void;
  result(): FacetResult;
}

/** Checks every facet expression up front (throws SearchError) and starts counting from zero. */
export function compileFacets(sources: readonly ExpressionSource[], fields: FieldCatalog): FacetAccumulator {
  const counters = new Map<string, FacetCounter>();
  for (const source of sources) {
    const expression = parseFacetExpression(source);
    const name = expression.alias ?? source.text;
    if (counters.has(name)) {
      throw malformedParameter(source.parameter, `Two facets are named '${name}'; rename one with 'as <name>'.`);
    }
    counters.set(name, facetCounter(expression, fields));
  }
  return {
    add(doc) {
      for (const counter of counters.values()) counter.add(doc);
    },
    result() {
      // fromEntries defines own properties, so even a facet named '__proto__' stays a plain key
      return Object.fromEntries([...counters].map(([name, counter]) => [name, counter.result()]));
    },
  };
}

function facetCounter(expression: FacetExpression, fields: FieldCatalog): FacetCounter {
  const { source, condition } = expression;
  const field = resolveField(expression.field, fields, source);
  if (condition === undefined) {
    if (field.kind === 'other') {
      throw malformedParameter(source.parameter, `The field '${field.path}' holds no numbers or text, so it has no terms to count.`);
    }
    return new TermCounter(field);
  }
  checkCondition(condition, field, source);
  const ranges = rangesOf(condition);
  if (ranges === undefined) return new FilterCounter(conditionPredicate(condition, field));
  if (field.kind !== 'number') {
    throw malformedParameter(source.parameter, `Range facets count numbers, but the field '${field.path}' holds text.`);
  }
  return new RangeCounter(field, ranges);
}

/** The ranges of a condition made of ranges only; anything else makes a filter facet. */
function rangesOf(condition: Condition): RangeItem[] | undefined {
  if (condition.kind !== 'values') return undefined;
  const ranges = condition.items.filter((item) => item.kind === 'range');
  return ranges.length === condition.items.length ? ranges : undefined;
}

class TermCounter implements FacetCounter {
  private readonly documentsPerTerm = new Map<Scalar, number>();
  private documentsWithoutValue = 0;

  constructor(private readonly field: Field) {}

  add(doc: unknown): void {
    const distinctValues = new Set(valuesAt(doc, this.field.segments).filter((value) => isOfKind(value, this.field.kind)));
    if (distinctValues.size === 0) this.documentsWithoutValue++;
    for (const value of distinctValues) {
      this.documentsPerTerm.set(value, (this.documentsPerTerm.get(value) ?? 0) + 1);
    }
  }

  result(): TermFacetResult {
    const terms = [...this.documentsPerTerm].map(([term, count]) => ({ term, count })).sort(byCountThenTerm);
    return {
      type: 'terms',
      dataType: this.field.kind === 'number' ? 'number' : 'text',
      missing: this.documentsWithoutValue,
      total: terms.reduce((sum, term) => sum + term.count, 0),
      other: 0,
      terms,
    };
  }
}

function byCountThenTerm(a: FacetTerm, b: FacetTerm): number {
  if (a.count !== b.count) return b.count - a.count;
  if (a.term === b.term) return 0;
  return a.term < b.term ? -1 : 1;
}

class RangeCounter implements FacetCounter {
  private readonly buckets: RangeBucket[];

  constructor(
    private readonly field: Field,
    ranges: readonly RangeItem[],
  ) {
    this.buckets = ranges.map((range) => new RangeBucket(numberOf(range.from), numberOf(range.to)));
  }

  add(doc: unknown): void {
    const numbers = valuesAt(doc, this.field.segments).filter((value) => typeof value === 'number');
    for (const bucket of this.buckets) bucket.add(numbers);
  }

  result(): RangeFacetResult {
    return { type: 'range', dataType: 'number', ranges: this.buckets.map((bucket) => bucket.result()) };
  }
}

/** The number of a checked bound on a number field (undefined is an open end). */
function numberOf(bound: Bound): number | undefined {
  return typeof bound?.value === 'number' ? bound.value : undefined;
}

/** Statistics of one range: `from` included, `to` excluded, as commercetools range facets count. */
class RangeBucket {
  private documents = 0;
  private values = 0;
  private sum = 0;
  private min = Number.POSITIVE_INFINITY;
  private max = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly from: number | undefined,
    private readonly to: number | undefined,
  ) {}

  add(numbers: readonly number[]): void {
    const inRange = numbers.filter((value) => this.contains(value));
    if (inRange.length === 0) return;
    this.documents++;
    this.values += inRange.length;
    for (const value of inRange) {
      this.sum += value;
      this.min = Math.min(this.min, value);
      this.max = Math.max(this.max, value);
    }
  }

  result(): FacetRange {
    const isEmpty = this.values === 0;
    return {
      type: 'double',
      from: this.from ?? 0,
      fromStr: this.from === undefined ? '' : String(this.from),
      to: this.to ?? 0,
      toStr: this.to === undefined ? '' : String(this.to),
      count: this.documents,
      totalCount: this.values,
      total: this.sum,
      min: isEmpty ? 0 : this.min,
      max: isEmpty ? 0 : this.max,
      mean: isEmpty ? 0 : this.sum / this.values,
    };
  }

  private contains(value: number): boolean {
    return (this.from === undefined || value >= this.from) && (this.to === undefined || value < this.to);
  }
}

class FilterCounter implements FacetCounter {
  private count = 0;

  constructor(private readonly matches: DocumentPredicate) {}

  add(doc: unknown): void {
    if (this.matches(doc)) this.count++;
  }

  result(): FilterFacetResult {
    return { type: 'filter', count: this.count };
  }
}
