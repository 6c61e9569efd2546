/**
 * Analysed text: how strings become words, and the rules by which a term matches a word
 * (search-model.ts, TextExpression). The engine finds the matches (shared/store/postgres); these
 * are the rules it keeps.
 */

/** Letters, digits and combining marks of any script; everything else separates tokens. */
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;
const NONSPACING_MARKS = /\p{Mn}/gu;

/**
 * Splits text into words with case and accents folded: lowercased, decomposed, nonspacing marks
 * (accents) dropped, composed again. So cafe, café, CAFÉ and "cafe\u0301" are one word, `cafe`.
 */
export function tokenize(text: string): string[] {
  return text.toLowerCase().normalize('NFD').replace(NONSPACING_MARKS, '').normalize('NFC').match(TOKEN) ?? [];
}

/** The longest word matched fuzzily, by stem or by prefix; a longer one matches only exactly. */
export const MAX_WORD_LENGTH = 255;

/**
 * PostgreSQL's Snowball stemmers (core, not an extension) by ISO 639-1 code: those both PostgreSQL
 * 17 (Aurora) and 18 (local) ship; Estonian, which not every release has, is left out. Norwegian
 * answers for `nb` and `nn` too.
 */
const STEMMERS: Readonly<Record<string, string>> = {
  ar: 'arabic', hy: 'armenian', eu: 'basque', ca: 'catalan', da: 'danish', nl: 'dutch', en: 'english', fi: 'finnish',
  fr: 'french', de: 'german', el: 'greek', hi: 'hindi', hu: 'hungarian', id: 'indonesian', ga: 'irish', it: 'italian',
  lt: 'lithuanian', ne: 'nepali', no: 'norwegian', nb: 'norwegian', nn: 'norwegian', pt: 'portuguese', ro: 'romanian',
  ru: 'russian', sr: 'serbian', es: 'spanish', sv: 'swedish', ta: 'tamil', tr: 'turkish', yi: 'yiddish',
};

/** The stemming dictionary of a locale's language (`en-GB` → `english_stem`), or undefined: its words fold only. */
export function stemmerOf(locale: string | undefined): string | undefined {
  const language = locale?.split('-')[0]!.toLowerCase() ?? '';
  return Object.hasOwn(STEMMERS, language) ? `${STEMMERS[language]}_stem` : undefined;
}

/** Every stemming dictionary, once each. */
export const STEMMING_DICTIONARIES = [...new Set(Object.values(STEMMERS))].map((language) => `${language}_stem`);

/** Whether a word has a stem: one holding a digit (ids, keys, dates: most of a dictionary) is only itself, which spares the index a stemmer call per language for each of them. */
export function isStemmable(word: string): boolean {
  return !/\p{N}/u.test(word) && letters(word).length <= MAX_WORD_LENGTH;
}

/** The edit distance the platform allows a term by default: 0 up to 2 letters, 1 up to 5, else 2. */
export function defaultFuzzyLevel(term: string): number {
  const length = letters(term).length;
  if (length <= 2) return 0;
  if (length <= 5) return 1;
  return 2;
}

/** The highest level `defaultFuzzyLevel` ever gives. */
export const MAX_FUZZY_LEVEL = 2;

/** Code points, so that a letter outside the BMP counts as one edit, not two. */
export function letters(text: string): string[] {
  return Array.from(text);
}

/**
 * Whether `source` becomes `target` with at most `maxEdits` insertions, deletions,
 * substitutions or swaps of two neighbouring letters (optimal string alignment, as Lucene's
 * fuzzy queries count). Runs the usual dynamic-programming table row by row and gives up once
 * a whole row exceeds the budget: no later row can be cheaper, since each cell costs at least
 * the cheapest cell of the row above (a swap costs 1 plus a cell two rows up, which is never
 * below the diagonal cell one row up).
 */
export function isWithinEditDistance(source: readonly string[], target: readonly string[], maxEdits: number): boolean {
  if (Math.abs(source.length - target.length) > maxEdits) return false;
  let rowBeforePrevious: number[] = [];
  let previousRow = Array.from({ length: target.length + 1 }, (_, j) => j);
  for (let i = 1; i <= source.length; i++) {
    const row = [i];
    let cheapestInRow = i;
    for (let j = 1; j <= target.length; j++) {
      const isSame = source[i - 1] === target[j - 1];
      let cost = Math.min(
        cell(previousRow, j) + 1, // delete source[i-1]
        cell(row, j - 1) + 1, // insert target[j-1]
        cell(previousRow, j - 1) + (isSame ? 0 : 1), // keep or substitute
      );
      const isSwap = i > 1 && j > 1 && source[i - 1] === target[j - 2] && source[i - 2] === target[j - 1];
      if (isSwap) cost = Math.min(cost, cell(rowBeforePrevious, j - 2) + 1);
      row.push(cost);
      cheapestInRow = Math.min(cheapestInRow, cost);
    }
    if (cheapestInRow > maxEdits) return false;
    rowBeforePrevious = previousRow;
    previousRow = row;
  }
  return cell(previousRow, target.length) <= maxEdits;
}

/** A table cell; the table is always filled where it is read, so the fallback never shows. */
function cell(row: readonly number[], index: number): number {
  return row[index] ?? Number.POSITIVE_INFINITY;
}
