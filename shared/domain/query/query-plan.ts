import { resourceJsonSchema } from '../resource-fields';
import type { ObjectFieldModel } from '../language/field-model';
import { queryableFields } from './field-schema';
import { instantOf } from './field-values';
import type { PredicateNode, ValueNode } from './predicate-ast';
import type { DocumentPredicate } from '../language/document-predicate';
import { compilePredicate, type PredicateVariables } from './predicate-evaluator';
import { parsePredicate } from './predicate-parser';
import { compileSort, type DocumentComparator } from './sort';
import { NarrowingCollector, planRead, type Narrowing, type PlannedRead } from './store-access';

let fields: ObjectFieldModel | undefined;

/** The resource's fields, as the query language sees them (made on first use). */
export const resourceFields = (): ObjectFieldModel => (fields ??= queryableFields(resourceJsonSchema()));

/**
 * How to answer a query. The predicate and the sort are always evaluated in full (the evaluator
 * is the reference semantics); what the plan adds is the one store read whose resources can
 * possibly match, and the order it hands them over in (store-access.ts), read off the top-level
 * conjuncts and the first sort: `id = / in` and `key = / in` name the candidates, `id`,
 * `createdAt` and `lastModifiedAt` comparisons bound their ranges.
 */
export interface QueryPlan extends PlannedRead {
  matches: DocumentPredicate;
  compare: DocumentComparator;
  /** The total is the project's counter (asked for, without `where`, in an order the read has): the page ends once it is full. */
  totalFromCounter: boolean;
}

export interface QueryRequest {
  where: readonly string[];
  sort: readonly string[];
  variables: PredicateVariables;
  withTotal: boolean;
}

export function planQuery(request: QueryRequest, store: { lastModifiedIndex: boolean }): QueryPlan {
  const predicates = request.where.map((where) => parsePredicate(where));
  const compiled = predicates.map((predicate) => compilePredicate(predicate, { schema: resourceFields(), variables: request.variables }));
  const narrowing = narrowingOf(predicates.flatMap(topLevelConjuncts), (value) => valuesOf(value, request.variables));
  const read = planRead(narrowing, request.sort, { lastModifiedIndex: store.lastModifiedIndex, readsEveryMatch: request.withTotal && predicates.length > 0 });
  return {
    matches: (doc) => compiled.every((matches) => matches(doc)),
    compare: compileSort([...request.sort], resourceFields()),
    // Only when the page can end early: a read of every resource counts them anyway.
    totalFromCounter: request.withTotal && predicates.length === 0 && read.streamOrder !== undefined,
    ...read,
  };
}

/** Refuses a `sort` that a query would refuse (400 InvalidInput), where the order itself does not matter (HEAD `/{projectKey}/resource`). */
export function checkSort(sort: readonly string[]): void {
  compileSort([...sort], resourceFields());
}

/**
 * What the top-level conjuncts say of the store's fields: `id`/`key` `=` and `in` name the
 * candidates; `>`, `>=`, `<`, `<=` on `id`, `createdAt` and `lastModifiedAt` bound them (inclusive:
 * a superset of the matches).
 */
function narrowingOf(conjuncts: PredicateNode[], values: (value: ValueNode) => unknown[]): Narrowing {
  const narrowing = new NarrowingCollector();
  for (const conjunct of conjuncts) {
    const field = 'field' in conjunct && conjunct.field.segments.length === 1 ? conjunct.field.segments[0] : undefined;
    if (field === 'id' || field === 'key') {
      let named: unknown[] | undefined;
      if (conjunct.kind === 'comparison' && conjunct.operator === '=') named = values(conjunct.value);
      if (conjunct.kind === 'in' && !conjunct.negated) named = conjunct.values.flatMap(values);
      if (named) narrowing.name(field, named.filter((value): value is string => typeof value === 'string'));
    }
    if (conjunct.kind !== 'comparison' || conjunct.operator === '=' || conjunct.operator === '!=') continue;
    const side = conjunct.operator === '>' || conjunct.operator === '>=' ? 'from' : 'to';
    const [text, ...more] = values(conjunct.value);
    if (typeof text !== 'string' || more.length > 0) continue;
    if (field === 'id') narrowing.bound('id', side, text);
    if (field === 'createdAt' || field === 'lastModifiedAt') {
      const instant = instantOf(text);
      if (instant !== undefined) narrowing.bound(field, side, instant);
    }
  }
  return narrowing.narrowing();
}

/** The conjuncts of a predicate at its top level: `a and (b and c)` is a, b, c. */
function topLevelConjuncts(predicate: PredicateNode): PredicateNode[] {
  return predicate.kind === 'and' ? predicate.operands.flatMap(topLevelConjuncts) : [predicate];
}

/** Literal strings, or every value a variable is given (a superset is safe: the predicate still decides). */
function valuesOf(value: ValueNode, variables: PredicateVariables): unknown[] {
  return value.kind === 'literal' ? [value.value] : [...(Object.hasOwn(variables, value.name) ? variables[value.name]! : [])];
}
