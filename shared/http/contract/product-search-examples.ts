/** Storefront requests of POST /{projectKey}/resource/search, as the document shows them (a unit test sends each through the parser). */
export const PRODUCT_SEARCH_EXAMPLES = {
  searchAsYouType: {
    summary: 'Search as you type: the words typed so far, fuzzy; the last one a prefix; the resources themselves',
    value: {
      query: { and: [{ fuzzy: { value: 'red', level: 1, language: 'en' } }, { fullTextPrefix: { value: 'lan', language: 'en' } }] },
      limit: 8,
      resourceParameters: {},
    },
  },
  filterWithFacets: {
    summary: 'A compound filter with facets of each kind; the chosen size narrows the results, not the facets',
    value: {
      query: {
        and: [
          { fullText: { field: 'objectTypeProperty.arrayOfStringExample', value: 'lanterns', language: 'en' } },
          { filter: [{ range: { field: 'objectTypeProperty.arrayOfIntExample', gte: 2, lt: 8 } }, { range: { field: 'createdAt', gte: '2026-01-01T00:00:00+01:00' } }] },
        ],
      },
      postFilter: { exact: { field: 'objectTypeProperty.arrayOfObjectType.integerExample', values: [3, 5] } },
      facets: [
        { distinct: { name: 'sizes', field: 'objectTypeProperty.arrayOfObjectType.integerExample', limit: 20, missing: 'none' } },
        { ranges: { name: 'price', field: 'objectTypeProperty.arrayOfFloatExample', ranges: [{ to: 10, key: 'under 10' }, { from: 10, to: 50 }, { from: 50 }] } },
        { count: { name: 'everything', scope: 'all' } },
        { stats: { name: 'ints', field: 'objectTypeProperty.arrayOfIntExample' } },
      ],
    },
  },
  sortByScore: {
    summary: 'Any of the words, most relevant first, then the latest; the second page',
    value: {
      query: { fullText: { value: 'blue lantern', mustMatch: 'any', language: 'en' } },
      sort: [{ field: 'score', order: 'desc' }, { field: 'lastModifiedAt', order: 'desc' }],
      limit: 20,
      offset: 20,
    },
  },
} satisfies Record<string, { summary: string; value: unknown }>;
