import { forEachString, searchValuesAt, valuesAt } from '../../../shared/domain/search/document-values';
import type { Field } from '../../../shared/domain/search/field-catalog';
import type { SearchExpression, SearchValue, TextExpression, TextTerm } from '../../../shared/domain/search/search-model';
import { isStemmable, isWithinEditDistance, letters, MAX_WORD_LENGTH, stemmerOf, tokenize } from '../../../shared/domain/search/text-match';

/**
 * A word's stem in a stemming dictionary (search-model.ts: PostgreSQL's ts_lexize, the algorithm
 * is the library's, not ours); undefined for a stop word.
 */
export type StemLookup = (dictionary: string, word: string) => string | undefined;

/** The search model's meaning of expressions, one document at a time (search-model.ts says it in words). */
export class Evaluator {
  private readonly texts = new WeakMap<object, { word: string; field: string }[]>();

  constructor(private readonly stems: StemLookup = (_, word) => word) {}

  matches(doc: unknown, expression: SearchExpression | undefined): boolean {
    if (expression === undefined) return true;
    switch (expression.kind) {
      case 'and':
      case 'filter':
        return expression.of.every((inner) => this.matches(doc, inner));
      case 'or':
        return expression.of.some((inner) => this.matches(doc, inner));
      case 'not':
        return !expression.of.some((inner) => this.matches(doc, inner));
      case 'exists':
        return valuesAt(doc, expression.field.segments).length > 0;
      case 'exact': {
        const fold = (value: SearchValue) => (expression.caseInsensitive && typeof value === 'string' ? value.toLowerCase() : value);
        const wanted = new Set(expression.values.map(fold));
        return searchValuesAt(doc, expression.field).some((value) => wanted.has(fold(value)));
      }
      case 'range': {
        const { gt, gte, lt, lte } = expression;
        const above = (value: SearchValue, bound: SearchValue | undefined, orEqual: boolean) => bound === undefined || (orEqual ? compareValues(value, bound) >= 0 : compareValues(value, bound) > 0);
        const below = (value: SearchValue, bound: SearchValue | undefined, orEqual: boolean) => bound === undefined || (orEqual ? compareValues(value, bound) <= 0 : compareValues(value, bound) < 0);
        return searchValuesAt(doc, expression.field).some((value) => above(value, gt, false) && above(value, gte, true) && below(value, lt, false) && below(value, lte, true));
      }
      case 'prefix':
        return textsAt(doc, expression.field, expression.caseInsensitive).some((text) => text.startsWith(folded(expression.value, expression.caseInsensitive)));
      case 'wildcard': {
        const pattern = [...folded(expression.pattern, expression.caseInsensitive)].map((character) => (character === '*' ? '.*' : character === '?' ? '.' : escape(character))).join('');
        const whole = new RegExp(`^${pattern}$`, 'su');
        return textsAt(doc, expression.field, expression.caseInsensitive).some((text) => whole.test(text));
      }
      case 'text':
        return this.matchesText(doc, expression);
    }
  }

  /** How often the document holds words matching a term of any of the texts (at its field, when it has one). */
  occurrences(doc: unknown, texts: readonly TextExpression[]): number {
    const matches = ({ word, field }: { word: string; field: string }) =>
      texts.some((text) => (text.field === undefined || text.field.path === field) && text.terms.some((term) => this.termMatches(term, text.language, word)));
    return this.allWords(doc).filter(matches).length;
  }

  /** All its words, wherever they are: the score's length normalisation. */
  wordCount(doc: unknown): number {
    return this.allWords(doc).length;
  }

  private matchesText(doc: unknown, text: TextExpression): boolean {
    const words = new Set(this.wordsOf(doc, text));
    const held = (term: TextTerm) => [...words].some((word) => this.termMatches(term, text.language, word));
    return text.mustMatch === 'all' ? text.terms.every(held) : text.terms.some(held);
  }

  private termMatches(term: TextTerm, language: string | undefined, word: string): boolean {
    if (word === term.word) return true;
    if (letters(word).length > MAX_WORD_LENGTH || letters(term.word).length > MAX_WORD_LENGTH) return false;
    if (term.edits > 0 && isWithinEditDistance(letters(term.word), letters(word), term.edits)) return true;
    if (term.prefix) return word.startsWith(term.word);
    const dictionary = stemmerOf(language);
    if (dictionary === undefined || !isStemmable(term.word) || !isStemmable(word)) return false;
    const stem = this.stems(dictionary, term.word);
    return stem !== undefined && stem === this.stems(dictionary, word);
  }

  private wordsOf(doc: unknown, text: TextExpression): string[] {
    return this.allWords(doc).flatMap(({ word, field }) => (text.field === undefined || text.field.path === field ? [word] : []));
  }

  private allWords(doc: unknown): { word: string; field: string }[] {
    if (typeof doc !== 'object' || doc === null) return [];
    let words = this.texts.get(doc);
    if (!words) {
      const found: { word: string; field: string }[] = [];
      forEachString(doc, (text, field) => found.push(...tokenize(text).map((word) => ({ word, field }))));
      this.texts.set(doc, (words = found));
    }
    return words;
  }
}

/** Numbers numerically, texts by code point (PostgreSQL's "C" collation; `<` compares UTF-16 units). */
export function compareValues(a: SearchValue, b: SearchValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [left, right] = [letters(String(a)), letters(String(b))];
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const difference = left[index]!.codePointAt(0)! - right[index]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

function textsAt(doc: unknown, field: Field, caseInsensitive: boolean): string[] {
  return searchValuesAt(doc, field).map((value) => folded(String(value), caseInsensitive));
}

const folded = (text: string, caseInsensitive: boolean) => (caseInsensitive ? text.toLowerCase() : text);
const escape = (character: string) => character.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
