import { createHash } from 'node:crypto';
import { letters } from '../../domain/search';

/**
 * The longest word kept as itself: fuzzystrmatch compares words of up to 255 characters, and a
 * btree entry holds at most about 2.7 kB. A longer token is indexed as its digest (`~` is never
 * part of a token), so it still matches exactly, though never fuzzily.
 */
export const MAX_WORD_LENGTH = 255;

/** A token as the index keeps it. */
export function indexedWord(token: string): string {
  return letters(token).length <= MAX_WORD_LENGTH ? token : `~${createHash('sha256').update(token).digest('hex')}`;
}

/** Each distinct word of a resource's tokens and how often it occurs (relevance counts them). */
export function occurrencesOf(tokens: readonly string[]): Map<string, number> {
  const occurrences = new Map<string, number>();
  for (const token of tokens) {
    const word = indexedWord(token);
    occurrences.set(word, (occurrences.get(word) ?? 0) + 1);
  }
  return occurrences;
}

/** How many digits a word holds: an edit changes that by at most one, as it does the length. */
export function digitsOf(word: string): number {
  return word.match(/\p{N}/gu)?.length ?? 0;
}

/**
 * Which characters a word holds, as bits (a–z, 0–9, the rest hashed onto the other bits). An edit
 * changes at most two of them (a substitution takes one character away and brings another), so a
 * word within k edits of a term differs from it in at most 2k bits: a cheap test before the
 * edit distance. A signed 64-bit integer, as PostgreSQL's bigint holds it.
 */
export function signatureOf(word: string): string {
  let bits = 0n;
  for (const character of letters(word)) bits |= 1n << BigInt(bitOf(character));
  return BigInt.asIntN(64, bits).toString();
}

function bitOf(character: string): number {
  const code = character.codePointAt(0)!;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  if (code >= 0x30 && code <= 0x39) return 26 + code - 0x30;
  return 36 + (code % 28);
}
