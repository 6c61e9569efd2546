import type pg from 'pg';
import { isStemmable, STEMMING_DICTIONARIES } from '../../../shared/domain/search/text-match';
import type { StemLookup } from './predicates';

/**
 * The stems of a vocabulary in every stemming dictionary, asked of PostgreSQL (`ts_lexize`, as the
 * index asks it): the stemming algorithm is the library's, the reference only looks it up. A word
 * outside the vocabulary is a test's mistake, and throws.
 */
export async function stemLookup(pool: pg.Pool, vocabulary: Iterable<string>): Promise<StemLookup> {
  const words = [...new Set(vocabulary)].filter(isStemmable);
  const { rows } = await pool.query<{ dictionary: string; word: string; stem: string | null }>(
    `SELECT dictionary, word, (ts_lexize(dictionary::regdictionary, word))[1] AS stem
     FROM unnest($1::text[]) AS dictionary CROSS JOIN unnest($2::text[]) AS word`,
    [STEMMING_DICTIONARIES, words],
  );
  const stems = new Map(rows.map((row) => [`${row.dictionary}\u0000${row.word}`, row.stem ?? undefined]));
  return (dictionary, word) => {
    const key = `${dictionary}\u0000${word}`;
    if (!stems.has(key)) throw new Error(`The stem of '${word}' in ${dictionary} was not looked up`);
    return stems.get(key);
  };
}
