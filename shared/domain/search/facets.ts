import type { Bound, Condition, ExpressionSource, FacetExpression, RangeItem, Scalar } from './expression-ast';
import { parseFacetExpression } from './expression-parser';
import type { FacetRange, FacetTerm, TermFacetResult } from './facet-results';
import type { FieldCatalog, FieldKind } from './field-catalog';
import { checkCondition, resolveField } from './filter-expression';
import { malformedParameter } from './search-error';
import type { FacetRequest, NumberRange } from './search-request';

/**
 * Facets, three forms:
 *
 *   facet=<field>                              term facet: documents per distinct value
 *   facet=<field>:range(0 to 100), (100 to *)  range facet: statistics per range
 *   facet=<field>:<filter condition>           filter facet: documents matching the condition
 *
 * each optionally followed by `as <name>`, the key of the facet in the result (by default the
 * expression as given).
 */
export function checkFacets(sources: readonly ExpressionSource[], fields: FieldCatalog): FacetRequest[] {
  const names = new Set<string>();
  return sources.map((source) => {
    const expression = parseFacetExpression(source);
    const name = expression.alias ?? source.text;
    if (names.has(name)) {
      throw malformedParameter(source.parameter, `Two facets are named '${name}'; rename one with 'as <name>'.`);
    }
    names.add(name);
    return checkFacet(name, expression, fields);
  });
}

function checkFacet(name: string, expression: FacetExpression, fields: FieldCatalog): FacetRequest {
  const { source, condition } = expression;
  const field = resolveField(expression.field, fields, source);
  if (condition === undefined) {
    if (field.kind === 'other') {
      throw malformedParameter(source.parameter, `The field '${field.path}' holds no numbers or text, so it has no terms to count.`);
    }
    return { name, kind: 'terms', field };
  }
  checkCondition(condition, field, source);
  const ranges = rangesOf(condition);
  if (ranges === undefined) return { name, kind: 'filter', filter: { field, condition } };
  if (field.kind !== 'number') {
    throw malformedParameter(source.parameter, `Range facets count numbers, but the field '${field.path}' holds text.`);
  }
  return { name, kind: 'ranges', field, ranges: ranges.map((range) => ({ from: numberOf(range.from), to: numberOf(range.to) })) };
}

/** The ranges of a condition made of ranges only; anything else makes a filter facet. */
function rangesOf(condition: Condition): RangeItem[] | undefined {
  if (condition.kind !== 'values') return undefined;
  const ranges = condition.items.filter((item) => item.kind === 'range');
  return ranges.length === condition.items.length ? ranges : undefined;
}

/** The number of a checked bound on a number field (undefined is an open end). */
function numberOf(bound: Bound): number | undefined {
  return typeof bound?.value === 'number' ? bound.value : undefined;
}

/** A term facet's answer from the documents per distinct value and the documents without one. */
export function termFacetResult(kind: FieldKind, counts: readonly FacetTerm[], missing: number): TermFacetResult {
  const terms = [...counts].sort(byCountThenTerm);
  return {
    type: 'terms',
    dataType: kind === 'number' ? 'number' : 'text',
    missing,
    total: terms.reduce((sum, term) => sum + term.count, 0),
    other: 0,
    terms,
  };
}

function byCountThenTerm(a: FacetTerm, b: FacetTerm): number {
  if (a.count !== b.count) return b.count - a.count;
  if (a.term === b.term) return 0;
  return (a.term as Scalar) < (b.term as Scalar) ? -1 : 1;
}

/** What one range counted: documents with a value in it, and the values in it over all documents. */
export interface RangeStatistics {
  documents: number;
  values: number;
  sum: number;
  min: number;
  max: number;
}

/** One range of a range facet's answer, as commercetools writes it (0 and '' for an open end; 0 statistics when empty). */
export function facetRange(range: NumberRange, statistics: RangeStatistics): FacetRange {
  const isEmpty = statistics.values === 0;
  return {
    type: 'double',
    from: range.from ?? 0,
    fromStr: range.from === undefined ? '' : String(range.from),
    to: range.to ?? 0,
    toStr: range.to === undefined ? '' : String(range.to),
    count: statistics.documents,
    totalCount: statistics.values,
    total: isEmpty ? 0 : statistics.sum,
    min: isEmpty ? 0 : statistics.min,
    max: isEmpty ? 0 : statistics.max,
    mean: isEmpty ? 0 : statistics.sum / statistics.values,
  };
}
