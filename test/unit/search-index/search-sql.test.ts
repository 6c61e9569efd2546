import { describe, expect, it } from 'vitest';
import { QueryParameters } from '../../../shared/domain/query-parameters';
import { resourceJsonSchema } from '../../../shared/domain/resource-fields';
import { compileSearchApiPattern, FieldCatalog, type SearchExpression, type SearchRequest, type TextTerm } from '../../../shared/domain/search';
import { SearchSql, type Statement, type TermWords } from '../../../shared/store/postgres/search-sql';

/**
 * The statements the engine runs for a few requests, as SQL a reader can follow: every value a
 * bound parameter, every statement scoped by project. The differential test holds what they
 * answer; this shows what they are.
 */
const fields = new FieldCatalog(resourceJsonSchema());
const searchApiPattern = (params: Record<string, string | string[]>): SearchRequest =>
  compileSearchApiPattern(new QueryParameters(new Map(Object.entries(params).map(([name, value]) => [name, [value].flat()]))), resourceJsonSchema());

/** The words each term matches, as the engine would have found them in the project's dictionary. */
function sqlOf(request: SearchRequest, words: (term: TextTerm) => TermWords = (term) => ({ words: [term.word], ...(term.prefix ? { prefix: term.word } : {}) })): SearchSql {
  const terms = new Map<TextTerm, TermWords>();
  const visit = (expression: SearchExpression | undefined): void => {
    if (expression?.kind === 'text') for (const term of expression.terms) terms.set(term, words(term));
    if (expression && 'of' in expression) expression.of.forEach(visit);
  };
  [request.query, request.postFilter, ...request.facets.map((facet) => facet.filter)].forEach(visit);
  return new SearchSql('shop', terms);
}

/** One clause a line; every parameter bound is used (PostgreSQL refuses a statement with one it cannot type). */
function readable({ text, values }: Statement) {
  const unused = values.map((_, index) => `$${index + 1}`).filter((placeholder) => !new RegExp(`\\${placeholder}(?!\\d)`).test(text));
  expect(unused).toEqual([]);
  return {
    sql: text
      .replace(/\s+/g, ' ')
      .replace(/ (FROM|WHERE|ORDER BY|LIMIT|GROUP BY|UNION ALL|LEFT JOIN|JOIN|SELECT) /g, '\n$1 ')
      .trim(),
    values,
  };
}

describe('the SQL of a search (search-sql.ts)', () => {
  it('searchApiPattern: a stemmed word, a createdAt range as instants, a post-filter, a sort', () => {
    const request = searchApiPattern({ 'text.en': 'Dogs', 'filter.query': 'createdAt:range("2026-11-29T07:00:00+01:00" to *)', filter: 'key:"alpha"', sort: 'createdAt desc', limit: '20' });
    const sql = sqlOf(request, (term) => ({ words: [term.word, 'dog', 'dogged'] }));
    expect(readable(sql.page(request))).toMatchInlineSnapshot(`
      {
        "sql": "SELECT r.id
      FROM search_resources r
      WHERE r.project_key = $1 AND NOT r.deleted AND (EXISTS (SELECT 1
      FROM search_postings p
      WHERE p.project_key = $1 AND p.seq = r.seq AND p.word = ANY($2::text[])) AND EXISTS (SELECT 1
      FROM search_values v
      WHERE v.project_key = $1 AND v.seq = r.seq AND v.field = $3 AND v.number >= $4::float8)) AND EXISTS (SELECT 1
      FROM search_values v
      WHERE v.project_key = $1 AND v.seq = r.seq AND v.field = $5 AND v.prefix = ANY($6::text[]) AND v.text = ANY($7::text[]))
      ORDER BY r.created_at DESC NULLS LAST, r.id
      LIMIT $8 OFFSET $9",
        "values": [
          "shop",
          [
            "dogs",
            "dog",
            "dogged",
          ],
          "createdAt",
          1795932000000,
          "key",
          [
            "alpha",
          ],
          [
            "alpha",
          ],
          20,
          0,
        ],
      }
    `);
    expect(readable(sql.count([request.query, request.postFilter]))).toMatchInlineSnapshot(`
      {
        "sql": "SELECT count(*)::int AS count
      FROM search_resources r
      WHERE r.project_key = $1 AND NOT r.deleted AND (EXISTS (SELECT 1
      FROM search_postings p
      WHERE p.project_key = $1 AND p.seq = r.seq AND p.word = ANY($2::text[])) AND EXISTS (SELECT 1
      FROM search_values v
      WHERE v.project_key = $1 AND v.seq = r.seq AND v.field = $3 AND v.number >= $4::float8)) AND EXISTS (SELECT 1
      FROM search_values v
      WHERE v.project_key = $1 AND v.seq = r.seq AND v.field = $5 AND v.prefix = ANY($6::text[]) AND v.text = ANY($7::text[]))",
        "values": [
          "shop",
          [
            "dogs",
            "dog",
            "dogged",
          ],
          "createdAt",
          1795932000000,
          "key",
          [
            "alpha",
          ],
          [
            "alpha",
          ],
        ],
      }
    `);
  });

  it('searchApiPattern: a word by relevance, its postings joined once for the match and the score', () => {
    const request = searchApiPattern({ 'text.en': 'dog', withTotal: 'false' });
    expect(readable(sqlOf(request).page(request))).toMatchInlineSnapshot(`
      {
        "sql": "SELECT r.id
      FROM search_resources r
      JOIN search_postings s ON s.seq = r.seq AND s.project_key = $1 AND (s.word = ANY($2::text[]))
      WHERE r.project_key = $1 AND NOT r.deleted
      GROUP BY r.project_key, r.id
      ORDER BY coalesce(sum(s.occurrences), 0)::float8 / (1 + ln(1 + r.word_count::float8)) DESC NULLS LAST, r.id
      LIMIT $3 OFFSET $4",
        "values": [
          "shop",
          [
            "dog",
          ],
          20,
          0,
        ],
      }
    `);
  });

  it('a term facet: the most frequent values over the query, with the totals of all', () => {
    const request = searchApiPattern({ 'filter.query': 'version:range(1 to *)', facet: 'key', facetLimit: '5' });
    expect(readable(sqlOf(request).facet(request, request.facets[0] as Extract<SearchRequest['facets'][number], { kind: 'distinct' }>))).toMatchInlineSnapshot(`
      {
        "sql": "WITH base AS MATERIALIZED (SELECT r.seq
      FROM search_resources r
      WHERE r.project_key = $1 AND NOT r.deleted AND EXISTS (SELECT 1
      FROM search_values v
      WHERE v.project_key = $1 AND v.seq = r.seq AND v.field = $2 AND v.number >= $3::float8))
      SELECT whole, value, count, resources
      FROM (SELECT grouping(v.prefix) = 1 AS whole, v.prefix AS value, count(*)::int AS count, count(*) FILTER (WHERE v.smallest)::int AS resources
      FROM search_values v
      WHERE v.project_key = $1 AND v.field = $4 AND v.text IS NOT NULL AND v.seq IN (SELECT seq
      FROM base) AND length(v.prefix) < 200
      GROUP BY GROUPING SETS ((v.prefix), ())
      UNION ALL SELECT grouping(v.text) = 1 AS whole, v.text AS value, count(*)::int AS count, count(*) FILTER (WHERE v.smallest)::int AS resources
      FROM search_values v
      WHERE v.project_key = $1 AND v.field = $4 AND v.text IS NOT NULL AND v.seq IN (SELECT seq
      FROM base) AND length(v.text) >= 200
      GROUP BY GROUPING SETS ((v.text), ())) AS bucket
      ORDER BY whole DESC, count DESC, value
      LIMIT $5 + 2",
        "values": [
          "shop",
          "version",
          1,
          "key",
          5,
        ],
      }
    `);
  });

  it('Product Search: fuzzy and a prefix, or a number, and not a wildcard; by score', () => {
    const field = (path: string) => fields.lookup(path)!;
    const request: SearchRequest = {
      query: {
        kind: 'and',
        of: [
          {
            kind: 'or',
            of: [
              { kind: 'text', field: undefined, mustMatch: 'all', language: 'en', terms: [{ word: 'dgo', edits: 1, prefix: false }, { word: 'lant', edits: 0, prefix: true }] },
              { kind: 'exact', field: field('objectTypeProperty.arrayOfIntExample'), values: [7], caseInsensitive: false },
            ],
          },
          { kind: 'not', of: [{ kind: 'wildcard', field: field('key'), pattern: 'tmp-*', caseInsensitive: true }] },
        ],
      },
      postFilter: undefined,
      facets: [],
      sort: [],
      page: { limit: 10, offset: 0, withTotal: false },
    };
    expect(readable(sqlOf(request, (term) => ({ words: term.prefix ? [term.word] : [term.word, 'dog', 'god'], ...(term.prefix ? { prefix: term.word } : {}) })).page(request))).toMatchInlineSnapshot(`
      {
        "sql": "SELECT r.id
      FROM search_resources r
      LEFT JOIN search_postings s ON s.seq = r.seq AND s.project_key = $1 AND ((s.word = ANY($2::text[]) OR (s.word = ANY($3::text[]) OR (s.word >= $4 AND s.word < $5))))
      WHERE r.project_key = $1 AND NOT r.deleted AND (r.seq IN (SELECT p.seq
      FROM search_postings p
      WHERE p.project_key = $1 AND p.word = ANY($12::text[])
      UNION ALL SELECT v.seq
      FROM search_values v
      WHERE v.project_key = $1 AND v.field = $13 AND v.number = ANY($14::float8[])) AND ((EXISTS (SELECT 1
      FROM search_postings p
      WHERE p.project_key = $1 AND p.seq = r.seq AND p.word = ANY($6::text[])) AND EXISTS (SELECT 1
      FROM search_postings p
      WHERE p.project_key = $1 AND p.seq = r.seq AND (p.word = ANY($7::text[]) OR (p.word >= $8 AND p.word < $9)))) OR EXISTS (SELECT 1
      FROM search_values v
      WHERE v.project_key = $1 AND v.seq = r.seq AND v.field = $10 AND v.number = ANY($11::float8[]))) AND NOT EXISTS (SELECT 1
      FROM search_values v
      WHERE v.project_key = $1 AND v.seq = r.seq AND v.field = $15 AND coalesce(v.lowered, v.text) LIKE $16))
      GROUP BY r.project_key, r.id
      ORDER BY coalesce(sum(s.occurrences), 0)::float8 / (1 + ln(1 + r.word_count::float8)) DESC NULLS LAST, r.id
      LIMIT $17 OFFSET $18",
        "values": [
          "shop",
          [
            "dgo",
            "dog",
            "god",
          ],
          [
            "lant",
          ],
          "lant",
          "lanu",
          [
            "dgo",
            "dog",
            "god",
          ],
          [
            "lant",
          ],
          "lant",
          "lanu",
          "objectTypeProperty.arrayOfIntExample",
          [
            7,
          ],
          [
            "dgo",
            "dog",
            "god",
          ],
          "objectTypeProperty.arrayOfIntExample",
          [
            7,
          ],
          "key",
          "tmp-%",
          10,
          0,
        ],
      }
    `);
  });
});
