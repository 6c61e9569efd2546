import { resourceJsonSchema } from '../resource';
import { fieldSchemaFromJsonSchema, type FieldSchema } from './field-schema';
import { compilePredicate, type DocumentPredicate, type PredicateVariables } from './predicate-evaluator';
import { parsePredicate, type PredicateNode } from './predicate-parser';
import { compileSort, type DocumentComparator } from './sort';

let fields: FieldSchema | undefined;

/** The resource's fields, as the query language sees them (made on first use). */
export const resourceFields = (): FieldSchema => (fields ??= fieldSchemaFromJsonSchema(resourceJsonSchema()));

/** How to answer a query: what matches, in which order, and where in id order to start reading. */
export interface QueryPlan {
  matches: DocumentPredicate;
  compare: DocumentComparator;
  /** The order is the store's own (id ascending): a page is complete as soon as it is full. */
  inStoreOrder: boolean;
  /** No resource below this id can match (from `id > "…"` / `id >= "…"` at the top level). */
  fromId?: string;
}

export function planQuery(request: { where: readonly string[]; sort: readonly string[]; variables: PredicateVariables }): QueryPlan {
  const predicates = request.where.map((where) => parsePredicate(where));
  const compiled = predicates.map((predicate) => compilePredicate(predicate, { schema: resourceFields(), variables: request.variables }));
  return {
    matches: (doc) => compiled.every((matches) => matches(doc)),
    compare: compileSort([...request.sort], resourceFields()),
    inStoreOrder: request.sort.every((sort) => /^\s*id\s+asc\s*$/i.test(sort)),
    fromId: predicates.map(idLowerBound).filter((bound) => bound !== undefined).sort().at(-1),
  };
}

/**
 * The lowest id a predicate admits, when it says so at its top level: `id > "x"` alone or
 * inside an `and`. This is what the commercetools SDK's `process()` paging sends, and it lets
 * the store start reading at that id instead of the project's first resource.
 */
function idLowerBound(predicate: PredicateNode): string | undefined {
  if (predicate.kind === 'and') {
    return predicate.operands.map(idLowerBound).filter((bound) => bound !== undefined).sort().at(-1);
  }
  if (
    predicate.kind === 'comparison' &&
    predicate.field.segments.length === 1 &&
    predicate.field.segments[0] === 'id' &&
    (predicate.operator === '>' || predicate.operator === '>=') &&
    predicate.value.kind === 'literal' &&
    typeof predicate.value.value === 'string'
  ) {
    return predicate.value.value;
  }
  return undefined;
}
