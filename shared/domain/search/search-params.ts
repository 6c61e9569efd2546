import type { ExpressionSource } from './expression-ast';
import { malformedParameter, SearchError } from './search-error';
import { defaultFuzzyLevel, MAX_FUZZY_LEVEL, tokenize, type TextQuery } from './text-match';

/**
 * The search parameters of `GET /{projectKey}/resource/searchApiPattern`, read from the query
 * string's parameters (repeated keys kept) and checked for type. Filter and facet expressions
 * are only collected here; compiling them needs the resource schema.
 * Parameters that are not the search's own (limit, offset, withTotal, sort, …) are left alone.
 */
export interface SearchParams {
  text: TextQuery;
  /** Accepted and checked; resources have a single projection, so it changes nothing. */
  staged: boolean | undefined;
  /** `filter`: restricts the results only. */
  resultFilters: ExpressionSource[];
  /** `filter.query`: restricts the results and the documents facets count. */
  queryFilters: ExpressionSource[];
  /** `filter.facets`: restricts the documents facets count only. */
  facetFilters: ExpressionSource[];
  facets: ExpressionSource[];
}

export type RawParams = ReadonlyMap<string, readonly string[]>;

/** `text.en`, `text.de-DE`: the locale is accepted as given, the search ignores it. */
const TEXT_PARAMETER = /^text\.[a-z]{2}(-[A-Z]{2})?$/;
/** A plain decimal number, as a query parameter may spell one. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function parseSearchParams(params: RawParams): SearchParams {
  return {
    text: textQuery(params),
    staged: booleanParameter(params, 'staged'),
    resultFilters: expressions(params, 'filter'),
    queryFilters: expressions(params, 'filter.query'),
    facetFilters: expressions(params, 'filter.facets'),
    facets: expressions(params, 'facet'),
  };
}

function textQuery(params: RawParams): TextQuery {
  const fuzzy = booleanParameter(params, 'fuzzy') ?? false;
  const fuzzyLevel = fuzzyLevelParameter(params);
  const terms = textTerms(params);
  if (fuzzy && fuzzyLevel !== undefined) checkFuzzyLevel(fuzzyLevel, terms);
  // fuzzyLevel only means something with fuzzy=true; without, it is checked for type and ignored
  return { terms, fuzzy, fuzzyLevel: fuzzy ? fuzzyLevel : undefined };
}

/** The distinct tokens of all `text.<locale>` values; a document must match every one. */
function textTerms(params: RawParams): string[] {
  const terms = new Set<string>();
  for (const [name, values] of params) {
    if (!name.startsWith('text.')) continue;
    if (!TEXT_PARAMETER.test(name)) {
      throw malformedParameter(name, `The locale must look like 'en' or 'en-US'.`);
    }
    for (const value of values) for (const term of tokenize(value)) terms.add(term);
  }
  return [...terms];
}

/** The platform refuses a fuzzyLevel above the default level of any term searched for. */
function checkFuzzyLevel(fuzzyLevel: number, terms: readonly string[]): void {
  for (const term of terms) {
    const platformDefault = defaultFuzzyLevel(term);
    if (fuzzyLevel > platformDefault) {
      throw new SearchError(
        'fuzzyLevel',
        `fuzzyLevel ${fuzzyLevel} is above the platform default ${platformDefault} for the term '${term}'.`,
      );
    }
  }
  if (fuzzyLevel > MAX_FUZZY_LEVEL) {
    throw new SearchError('fuzzyLevel', `fuzzyLevel ${fuzzyLevel} is above the highest platform default ${MAX_FUZZY_LEVEL}.`);
  }
}

function fuzzyLevelParameter(params: RawParams): number | undefined {
  const text = singleValue(params, 'fuzzyLevel');
  if (text === undefined) return undefined;
  if (!DECIMAL.test(text.trim())) throw malformedParameter('fuzzyLevel', `Expected a number, got '${text}'.`);
  const level = Number(text);
  if (!Number.isInteger(level) || level < 0) {
    throw malformedParameter('fuzzyLevel', `Expected a whole number of edits, 0 or more, got '${text}'.`);
  }
  return level;
}

function booleanParameter(params: RawParams, name: string): boolean | undefined {
  const text = singleValue(params, name);
  if (text === undefined) return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw malformedParameter(name, `Expected true or false, got '${text}'.`);
}

function singleValue(params: RawParams, name: string): string | undefined {
  const values = params.get(name) ?? [];
  if (values.length > 1) throw malformedParameter(name, 'It may be given only once.');
  return values[0];
}

/** The expressions of a repeatable parameter; all of them apply. */
function expressions(params: RawParams, parameter: string): ExpressionSource[] {
  return (params.get(parameter) ?? []).map((text) => {
    if (text.trim() === '') throw malformedParameter(parameter, 'The expression is empty.');
    return { parameter, text };
  });
}
