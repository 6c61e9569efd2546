/** The commercetools query language of the service: `where` predicates and `sort` expressions. */
export type { DocumentPredicate } from '../language/document-predicate.js';
export { ParameterError } from '../language/parameter-error.js';
export { queryableFields } from './field-schema.js';
export { MAX_NESTING_DEPTH, MAX_PREDICATE_LENGTH, parsePredicate } from './predicate-parser.js';
export type * from './predicate-ast.js';
export { compilePredicate, compilePredicates, type PredicateOptions, type PredicateVariables } from './predicate-evaluator.js';
export { compileSort, sortKeys, type DocumentComparator, type SortKey } from './sort.js';
export { checkSort, planQuery, resourceFields, type QueryPlan, type QueryRequest } from './query-plan';
export { NarrowingCollector, planRead, type Narrowing, type PlannedRead, type ReadOptions, type StoreRange, type StoreRead } from './store-access';
export { anyMatch, collectPage, pageRequestOf, type CollectOptions, type PageBytes, type PageOrder, type PageRequest } from './page-window';
export { pageOf, type Page } from './page';
export { QueryBudget } from './query-budget';
