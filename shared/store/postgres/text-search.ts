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
