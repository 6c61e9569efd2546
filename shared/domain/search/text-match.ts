/**
 * Full-text matching: a document matches when every term of the query matches some token
 * of the document's strings, exactly or (fuzzy) within an edit distance. The engine finds the
 * matches (shared/store/postgres); these are the rules it keeps.
 */

/** Letters, digits and combining marks of any script; everything else separates tokens. */
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/** Splits text into lowercase tokens (NFC first, so composed and decomposed letters agree). */
export function tokenize(text: string): string[] {
  return text.normalize('NFC').toLowerCase().match(TOKEN) ?? [];
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

export interface TextQuery {
  /** Distinct tokens of all `text.<locale>` values; all of them must match. */
  terms: readonly string[];
  fuzzy: boolean;
  /** The edit distance for every term; undefined means each term's default. Ignored unless fuzzy. */
  fuzzyLevel: number | undefined;
}

/** The edits a term may be away from a word of the document: none unless fuzzy. */
export function maxEditsOf(term: string, query: TextQuery): number {
  return query.fuzzy ? (query.fuzzyLevel ?? defaultFuzzyLevel(term)) : 0;
}

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
