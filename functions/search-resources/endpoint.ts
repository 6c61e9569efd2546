import { json, jsonBody, PAGED_QUERY, PROJECT_KEY, QUERY_ERRORS, READ } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';
import type { ParameterSpecs } from '../../shared/http/parameters';
import { DEFAULT_FACET_LIMIT, MAX_FACET_LIMIT } from '../../shared/domain/search';

const SEARCH_QUERY: ParameterSpecs = {
  fuzzy: { type: 'boolean' },
  fuzzyLevel: { type: 'integer', min: 0 },
  staged: { type: 'boolean' },
  filter: { type: 'string', repeatable: true },
  'filter.query': { type: 'string', repeatable: true },
  'filter.facets': { type: 'string', repeatable: true },
  facet: { type: 'string', repeatable: true },
  facetLimit: { type: 'integer', min: 1, max: MAX_FACET_LIMIT, description: `Terms a term facet lists, the most frequent (default ${DEFAULT_FACET_LIMIT}); \`other\` counts the rest` },
  sort: PAGED_QUERY.sort,
  limit: PAGED_QUERY.limit,
  offset: PAGED_QUERY.offset,
  withTotal: PAGED_QUERY.withTotal,
};

/**
 * GET /{projectKey}/resource/searchApiPattern: full-text search with filters and facets; POST
 * /{projectKey}/resource/search: the same search in Product Search's request. One function, the
 * search engine's one reader.
 */
export const searchResources = defineEndpoint({
  name: 'search-resources',
  permissions: ['projects:read', 'search:read'],
  routes: [
    route({
      method: 'GET',
      path: '/{projectKey}/resource/searchApiPattern',
      access: READ,
      body: 'none',
      summary: 'Full-text search with fuzzy matching, filters and facets.',
      pathParameters: { projectKey: PROJECT_KEY },
      query: SEARCH_QUERY,
      tag: 'Resources',
      description:
        'Full-text search: `text.<locale>=<words>` (e.g. `text.en=dogs`; every word must match a word of the resource\'s strings, case and accents folded, and in a language PostgreSQL stems, by stem: `dogs` finds `dog`). `fuzzy=true` allows the platform default edit distance (0 for 1–2 characters, 1 for 3–5, 2 above; a swap of neighbours counts as one edit); a `fuzzyLevel` above it is 400. `filter`, `filter.query` and `filter.facets` take `<field>:<values or range(a to b)>`; `facet` takes `<field>` (the `facetLimit` most frequent values), `<field>:range(...)` or `<field>:<condition>`, optionally `as <name>`. Date-time fields (`createdAt`, `lastModifiedAt`) compare as instants: `createdAt:range("2026-11-29T07:00:00+01:00" to *)`. With text and no `sort`, results come by relevance (how often the resource holds the words, damped by its length), ties by id; without text, by id. The search index follows writes within about a second; the results\' bodies are read from the table, current.',
      responses: { 200: { description: 'A page of the matches and the facets.', content: json('SearchResult') } },
      errors: QUERY_ERRORS,
    }),
      route({
      method: 'POST',
      path: '/{projectKey}/resource/search',
      access: READ,
      body: 'json',
      summary: "Search in Product Search's request: compound and simple expressions, facets, sort by score or fields.",
      pathParameters: { projectKey: PROJECT_KEY },
      tag: 'Resources',
      description:
        "commercetools' Product Search request over this resource. `query` takes compound (`and`, `or`, `not`, `filter`) and simple expressions (`exact`, `fullText`, `fullTextPrefix`, `fuzzy`, `prefix`, `wildcard`, `range`, `exists`) on the resource's fields as dotted paths; `fullText`, `fullTextPrefix` and `fuzzy` without a `field` search every text. `postFilter` restricts the results only, after the facets (`distinct`, `ranges`, `count`, `stats`) are counted. Results are ids, with the current `resource` read from the table when `resourceParameters` is given. A query holds at most 50 expressions nested at most 10 deep; a request at most 20 facets. `boost` and `markMatchingVariants` are accepted and change nothing; a refusal names the expression at fault by its path (`query.and[1].exact.field: Unknown field 'x'.`).",
      request: jsonBody('ResourceSearchRequest'),
      responses: { 200: { description: 'A page of ids (and resources, when asked) and the facets.', content: json('ResourcePagedSearchResponse') } },
      errors: ['BadRequest', 'PayloadTooLarge', 'UnsupportedMediaType', 'ServiceUnavailable'],
    }),
  ],
});
