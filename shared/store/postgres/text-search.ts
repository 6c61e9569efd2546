import { createHash } from 'node:crypto';
import { letters } from '../../domain/search';

/**
 * Our tokens as PostgreSQL's full-text types, written as literals of quoted lexemes so that its
 * own parser never re-tokenizes them (tokens hold only letters, digits and marks: no quote to escape).
 */

/**
 * The longest word kept as itself: fuzzystrmatch compares words of up to 255 characters, and a
 * lexeme holds at most 2047 bytes. A longer token is indexed as its digest (`~` is never part of a
 * token), so it still matches exactly, though never fuzzily.
 */
export const MAX_WORD_LENGTH = 255;

/** tsvector positions stop at 16383; a lexeme keeps at most 256 of them. */
const MAX_POSITION = 16_383;
const MAX_POSITIONS = 256;

export function lexemeOf(token: string): string {
  return letters(token).length <= MAX_WORD_LENGTH ? token : `~${createHash('sha256').update(token).digest('hex')}`;
}

/** `'dog':1,4 'cat':2`: each distinct token with its positions (relevance counts them). */
export function tsvectorLiteral(tokens: readonly string[]): string {
  const positions = new Map<string, number[]>();
  tokens.forEach((token, index) => {
    const lexeme = lexemeOf(token);
    let list = positions.get(lexeme);
    if (!list) positions.set(lexeme, (list = []));
    if (list.length < MAX_POSITIONS) list.push(Math.min(index + 1, MAX_POSITION));
  });
  return [...positions].map(([lexeme, list]) => `'${lexeme}':${list.join(',')}`).join(' ');
}

/** `('dog' | 'dgo') & ('cat')`: every group must match, any word of a group will do. */
export function tsqueryLiteral(groups: readonly (readonly string[])[]): string {
  return groups.map((words) => `(${words.map((word) => `'${lexemeOf(word)}'`).join(' | ')})`).join(' & ');
}
