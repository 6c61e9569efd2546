/**
 * The reference search: a SearchRequest evaluated document by document in memory, with the search
 * model's meaning (search-model.ts). The engine (shared/store/postgres) is held to its answers
 * (test/integration/search-differential.test.ts); a Product Search generator holds its endpoint to
 * them the same way: build the SearchRequest its body parses to, ask `referenceSearch`.
 */
import { searchValuesAt } from '../../../shared/domain/search/document-values';
import { scoringTexts, type SearchHits, type SearchRequest, type SearchSort, type SearchValue } from '../../../shared/domain/search/search-model';
import { facetCounts } from './facet-counters';
import { compareValues, Evaluator, type StemLookup } from './predicates';

export { compareValues, Evaluator, type StemLookup } from './predicates';
export { stemLookup } from './stems';

interface Document {
  id: string;
}

export interface ReferenceOptions {
  /** Stems of the words searched and held; none: no word is stemmed (every word is its own stem). */
  stems?: StemLookup;
}

/** A whole search over the given resources: the page's ids in order, the total when asked, the facets' counts. */
export function referenceSearch(resources: readonly Document[], request: SearchRequest, options: ReferenceOptions = {}): SearchHits {
  const evaluator = new Evaluator(options.stems);
  const inQuery = resources.filter((doc) => evaluator.matches(doc, request.query));
  const results = inQuery.filter((doc) => evaluator.matches(doc, request.postFilter)).sort(comparator(request, evaluator));
  const { limit, offset, withTotal } = request.page;
  return {
    ids: results.slice(offset, offset + limit).map((doc) => doc.id),
    ...(withTotal ? { total: results.length } : {}),
    facets: request.facets.map((facet) =>
      facetCounts(
        facet,
        (facet.scope === 'query' ? inQuery : resources).filter((doc) => evaluator.matches(doc, facet.filter)),
      ),
    ),
  };
}

/** The score of search-model.ts: occurrences of words matching the scoring texts, damped by the document's length. */
export function scoreOf(doc: unknown, request: SearchRequest, evaluator: Evaluator): number {
  return evaluator.occurrences(doc, scoringTexts(request.query)) / (1 + Math.log(1 + evaluator.wordCount(doc)));
}

/** The sort keys, then id ascending unless a key is it; no keys: by score when the query scores, else by id. */
function comparator(request: SearchRequest, evaluator: Evaluator): (a: Document, b: Document) => number {
  const scores = scoringTexts(request.query).length > 0;
  const keys: readonly SearchSort[] = request.sort.length > 0 ? request.sort : scores ? [{ by: 'score', direction: -1 }] : [];
  const score = new Map<Document, number>();
  const scoreOfDoc = (doc: Document) => score.get(doc) ?? score.set(doc, scoreOf(doc, request, evaluator)).get(doc)!;
  const byKey = keys.map((key) => (a: Document, b: Document) => {
    if (key.by === 'score') return key.direction * (scoreOfDoc(a) - scoreOfDoc(b));
    const [left, right] = [sortValue(a, key), sortValue(b, key)];
    if (left === undefined || right === undefined) return left === right ? 0 : left === undefined ? 1 : -1;
    return key.direction * compareValues(left, right);
  });
  return (a, b) => {
    for (const compare of byKey) {
      const order = compare(a, b);
      if (order !== 0) return order;
    }
    return compareValues(a.id, b.id);
  };
}

/** A document's values at the key's field reduced by its mode (each value as often as held); undefined when it has none. */
function sortValue(doc: Document, key: Extract<SearchSort, { by: 'field' }>): SearchValue | undefined {
  const values = searchValuesAt(doc, key.field).sort(compareValues);
  if (values.length === 0) return undefined;
  const sum = () => (values as number[]).reduce((total, value) => total + value, 0);
  switch (key.mode) {
    case 'min':
      return values[0];
    case 'max':
      return values.at(-1);
    case 'sum':
      return sum();
    case 'avg':
      return sum() / values.length;
  }
}
