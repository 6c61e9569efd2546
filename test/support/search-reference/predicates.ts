import type { Bound, Condition, Scalar, ValueItem } from '../../../shared/domain/search/expression-ast';
import { forEachString, valuesAt } from '../../../shared/domain/search/document-values';
import type { Field, FieldKind } from '../../../shared/domain/search/field-catalog';
import { isOfKind } from '../../../shared/domain/search/filter-expression';
import { isWithinEditDistance, letters, maxEditsOf, tokenize, type TextQuery } from '../../../shared/domain/search/text-match';

/** A question asked of one document. */
export type DocumentPredicate = (doc: unknown) => boolean;

/** The predicate of a checked condition on a known field: any value at the field matches any item. */
export function conditionPredicate(condition: Condition, field: Field): DocumentPredicate {
  switch (condition.kind) {
    case 'exists':
      return (doc) => valuesAt(doc, field.segments).length > 0;
    case 'missing':
      return (doc) => valuesAt(doc, field.segments).length === 0;
    case 'values': {
      const matchers = condition.items.map((item) => valueMatcher(item, field.kind));
      return (doc) => valuesAt(doc, field.segments).some((value) => matchers.some((matches) => matches(value)));
    }
  }
}

function valueMatcher(item: ValueItem, kind: FieldKind): (value: unknown) => boolean {
  if (item.kind === 'term') return (value) => value === item.value;
  const { from, to } = item;
  return (value) => isOfKind(value, kind) && isAtLeast(value, from) && isAtMost(value, to);
}

function isAtLeast(value: Scalar, bound: Bound): boolean {
  return bound === undefined || value >= bound.value;
}

function isAtMost(value: Scalar, bound: Bound): boolean {
  return bound === undefined || value <= bound.value;
}

interface TermMatcher {
  term: string;
  letters: readonly string[];
  maxEdits: number;
}

/**
 * True for the documents whose strings match every term of the query, exactly or (fuzzy) within
 * the term's edits. A text without terms restricts nothing.
 */
export function textPredicate(query: TextQuery): DocumentPredicate {
  const matchers = query.terms.map((term) => ({ term, letters: letters(term), maxEdits: maxEditsOf(term, query) }));
  if (matchers.length === 0) return () => true;
  return (doc) => {
    const text = new DocumentText(doc);
    return matchers.every((matcher) => text.matches(matcher));
  };
}

/** The distinct tokens of one document, split into letters only once and only if fuzzy needs them. */
class DocumentText {
  private readonly tokens = new Set<string>();
  private tokenLetters: (readonly string[])[] | undefined;

  constructor(doc: unknown) {
    forEachString(doc, (text) => {
      for (const token of tokenize(text)) this.tokens.add(token);
    });
  }

  matches(matcher: TermMatcher): boolean {
    if (this.tokens.has(matcher.term)) return true;
    if (matcher.maxEdits === 0) return false;
    this.tokenLetters ??= [...this.tokens].map(letters);
    return this.tokenLetters.some((token) => isWithinEditDistance(matcher.letters, token, matcher.maxEdits));
  }
}

/** A predicate true when all of the given ones are (and when there are none). */
export function allOf(predicates: readonly DocumentPredicate[]): DocumentPredicate {
  return (doc) => predicates.every((predicate) => predicate(doc));
}
