import { valuesAt } from '../../../shared/domain/search/document-values';
import type { Scalar } from '../../../shared/domain/search/expression-ast';
import type { FacetRange, FacetResult, FacetTerm, FilterFacetResult, RangeFacetResult, TermFacetResult } from '../../../shared/domain/search/facet-results';
import type { Field } from '../../../shared/domain/search/field-catalog';
import { isOfKind } from '../../../shared/domain/search/filter-expression';
import type { FacetRequest, NumberRange } from '../../../shared/domain/search/search-request';
import { conditionPredicate, type DocumentPredicate } from './predicates';

/** Facets counted over the documents fed in one by one. */
export interface FacetAccumulator {
  add(doc: unknown): void;
  result(): Record<string, FacetResult>;
}

interface FacetCounter {
  add(doc: unknown): void;
  result(): FacetResult;
}

export function facetAccumulator(facets: readonly FacetRequest[]): FacetAccumulator {
  const counters = facets.map((facet) => [facet.name, counterOf(facet)] as const);
  return {
    add(doc) {
      for (const [, counter] of counters) counter.add(doc);
    },
    result() {
      return Object.fromEntries(counters.map(([name, counter]) => [name, counter.result()]));
    },
  };
}

function counterOf(facet: FacetRequest): FacetCounter {
  switch (facet.kind) {
    case 'terms':
      return new TermCounter(facet.field);
    case 'ranges':
      return new RangeCounter(facet.field, facet.ranges);
    case 'filter':
      return new FilterCounter(conditionPredicate(facet.filter.condition, facet.filter.field));
  }
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
    ranges: readonly NumberRange[],
  ) {
    this.buckets = ranges.map((range) => new RangeBucket(range.from, range.to));
  }

  add(doc: unknown): void {
    const numbers = valuesAt(doc, this.field.segments).filter((value) => typeof value === 'number');
    for (const bucket of this.buckets) bucket.add(numbers);
  }

  result(): RangeFacetResult {
    return { type: 'range', dataType: 'number', ranges: this.buckets.map((bucket) => bucket.result()) };
  }
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
