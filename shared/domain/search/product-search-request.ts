import * as z from 'zod/mini';
import { MAX_OFFSET } from '../limits';

/**
 * The body of POST /{projectKey}/resource/search: commercetools' ProductSearchRequest (the RAML's
 * product-search/ and search/ types) over this resource. Its shape only; product-search.ts checks
 * the rest (fields, values of their kind, the bounds below) and builds the search model from it.
 */

/** Expressions one query (`query`, `postFilter`, a facet's `filter`) holds, compounds included: Product Search's limit. */
export const MAX_QUERY_EXPRESSIONS = 50;
/** Compounds nested in one another, at most. */
export const MAX_QUERY_DEPTH = 10;
/** A text value, as Product Search bounds the strings of simple expressions. */
const MAX_TEXT_LENGTH = 256;
/** Facets of one request; values of an `exact`, `includes` of a distinct facet, ranges of a ranges facet. */
export const MAX_FACETS = 20;
const MAX_LISTED_VALUES = 100;
const MAX_FACET_RANGES = 50;

const int = (min: number, max: number, description: string) => z.number().check(z.int(), z.minimum(min), z.maximum(max), z.meta({ description }));
const described = <T extends z.ZodMiniType>(schema: T, description: string) => schema.check(z.meta({ description }));

const Text = z.string().check(z.maxLength(MAX_TEXT_LENGTH));
const FieldPath = described(z.string().check(z.minLength(1), z.maxLength(MAX_TEXT_LENGTH)), 'A dotted path of the resource, e.g. `objectTypeProperty.arrayOfIntExample`, `key`, `createdAt`');
const Value = described(z.union([z.number(), Text]), 'A number for number fields, an ISO 8601 date-time for date-time fields, text for text fields');
const Locale = described(z.string().check(z.regex(/^[a-z]{2}(-[A-Z]{2})?$/)), 'A locale (`en`, `de-DE`): the language whose stemming full text uses where PostgreSQL has it');
const FieldType = described(
  z.enum(['boolean', 'text', 'ltext', 'enum', 'lenum', 'number', 'money', 'date', 'datetime', 'time', 'reference', 'set_boolean', 'set_text', 'set_ltext', 'set_enum', 'set_lenum', 'set_number', 'set_money', 'set_date', 'set_datetime', 'set_time', 'set_reference']),
  "Checked to fit the field: `number`, `text` or `datetime` (or their `set_`)",
);
const MustMatch = described(z.enum(['all', 'any']), 'Every word must match (`all`, the default) or one (`any`)');

/** What every simple expression takes (SearchQueryExpressionValue). */
const simple = { field: FieldPath, boost: z.optional(described(z.number(), 'Accepted; relevance does not weigh it')), fieldType: z.optional(FieldType) };
const text = { ...simple, field: z.optional(described(FieldPath, 'A text field; none: every text the resource holds')), value: Text, language: z.optional(Locale), mustMatch: z.optional(MustMatch) };
const caseInsensitive = z.optional(described(z.boolean(), 'Texts compare lowercased'));

const Exact = z.strictObject({ ...simple, value: z.optional(Value), values: z.optional(z.array(Value).check(z.minLength(1), z.maxLength(MAX_LISTED_VALUES))), language: z.optional(Locale), caseInsensitive });
const FullText = z.strictObject(text);
const Fuzzy = z.strictObject({ ...text, level: int(0, 2, "Edits allowed per word, at most the word's default: 0 up to 2 letters, 1 up to 5, else 2") });
const Pattern = z.strictObject({ ...simple, value: Text, language: z.optional(Locale), caseInsensitive });
const Range = z.strictObject({ ...simple, gt: z.optional(Value), gte: z.optional(Value), lt: z.optional(Value), lte: z.optional(Value) });
const Exists = z.strictObject({ ...simple, language: z.optional(Locale) });

/** The body's type for a query: the schema is recursive, so its type is written once here. */
export type SearchQueryBody =
  | { and: SearchQueryBody[] } | { or: SearchQueryBody[] } | { not: SearchQueryBody[] } | { filter: SearchQueryBody[] }
  | { exact: z.infer<typeof Exact> } | { range: z.infer<typeof Range> } | { exists: z.infer<typeof Exists> }
  | { fullText: z.infer<typeof FullText> } | { fullTextPrefix: z.infer<typeof FullText> } | { fuzzy: z.infer<typeof Fuzzy> }
  | { prefix: z.infer<typeof Pattern> } | { wildcard: z.infer<typeof Pattern> };

const compound = (): z.ZodMiniType<SearchQueryBody[]> => z.array(SearchQuery).check(z.minLength(1));
/** An object holding exactly one expression: a compound (`and`, `or`, `not`, `filter`) or a simple one. */
export const SearchQuery: z.ZodMiniType<SearchQueryBody> = z.union([
  z.strictObject({ get and() { return compound(); } }),
  z.strictObject({ get or() { return compound(); } }),
  z.strictObject({ get not() { return compound(); } }),
  z.strictObject({ get filter() { return compound(); } }),
  z.strictObject({ exact: Exact }),
  z.strictObject({ fullText: FullText }),
  z.strictObject({ fullTextPrefix: FullText }),
  z.strictObject({ fuzzy: Fuzzy }),
  z.strictObject({ prefix: Pattern }),
  z.strictObject({ wildcard: Pattern }),
  z.strictObject({ range: Range }),
  z.strictObject({ exists: Exists }),
]);

export const SearchSorting = z.strictObject({
  field: described(z.string().check(z.minLength(1), z.maxLength(MAX_TEXT_LENGTH)), 'A field, or `score` for relevance'),
  order: z.enum(['asc', 'desc']),
  mode: z.optional(described(z.enum(['min', 'max', 'avg', 'sum']), "Which of a field's values sorts it: `min` ascending and `max` descending by default; `avg` and `sum` for numbers")),
  language: z.optional(Locale),
  fieldType: z.optional(FieldType),
});

const scope = z.optional(described(z.enum(['query', 'all']), 'Count the resources the query finds (`query`, the default) or every resource (`all`); `postFilter` never applies'));
const level = z.optional(described(z.literal('products'), 'Resources are counted, as products are'));

const facet = { name: z.string().check(z.minLength(1), z.maxLength(MAX_TEXT_LENGTH)), scope, filter: z.optional(SearchQuery) };
const ofField = { ...facet, field: FieldPath, fieldType: z.optional(FieldType) };
const localised = { ...ofField, level, language: z.optional(Locale) };
const FacetRange = z.strictObject({ from: z.optional(Value), to: z.optional(Value), key: z.optional(described(Text, 'Default `<from>-<to>`, `*` for an open end')) });

const FacetExpression = z.union([
  z.strictObject({
    distinct: z.strictObject({
      ...localised,
      includes: z.optional(described(z.array(Text).check(z.maxLength(MAX_LISTED_VALUES)), 'Only these keys')),
      sort: z.optional(z.strictObject({ by: z.enum(['count', 'key']), order: z.enum(['asc', 'desc']) })),
      limit: z.optional(int(1, 200, 'Buckets, at most (default 10)')),
      missing: z.optional(described(Text, 'The key of one more bucket, after the others: resources without a value')),
    }),
  }),
  z.strictObject({
    ranges: z.strictObject({
      ...localised,
      ranges: described(z.array(FacetRange).check(z.minLength(1), z.maxLength(MAX_FACET_RANGES)), '`from` included, `to` excluded: numbers, or date-times for date-time fields'),
    }),
  }),
  z.strictObject({ count: z.strictObject({ ...facet, level }) }),
  z.strictObject({ stats: z.strictObject(ofField) }),
]);
export type FacetExpressionBody = z.infer<typeof FacetExpression>;

export const ResourceSearchRequest = z.strictObject({
  query: z.optional(SearchQuery),
  /** Restricts the results only, after the facets are counted (described with the route: a description here would copy the schema). */
  postFilter: z.optional(SearchQuery),
  sort: z.optional(described(z.array(SearchSorting).check(z.maxLength(10)), 'Applied in order, then by id; none: by relevance when the query has text, else by id')),
  limit: z.optional(int(0, 100, 'Results per page (default 20)')),
  offset: z.optional(int(0, MAX_OFFSET, 'Results to skip (default 0)')),
  markMatchingVariants: z.optional(described(z.boolean(), 'Accepted; a resource has no variants, so results never carry `matchingVariants`')),
  resourceParameters: z.optional(described(z.strictObject({}), 'Present (`{}`): each result carries the current `resource`, read from the table')),
  facets: z.optional(z.array(FacetExpression).check(z.maxLength(MAX_FACETS))),
});
export type ResourceSearchRequest = z.infer<typeof ResourceSearchRequest>;
