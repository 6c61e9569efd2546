import type { Token, TokenCursor } from './token-cursor';

/** A field named in an expression: `version`, or `objectTypeProperty.arrayOfIntExample`. */
export interface FieldPathSyntax {
  readonly segments: readonly string[];
  /** Column of the first name. */
  readonly column: number;
}

/** `fieldPath := word ("." word)*`, which both languages share, from its first word on (already taken). */
export function fieldPathFrom<Kind extends string>(first: Token<Kind>, tokens: TokenCursor<Kind | 'word' | '.'>): FieldPathSyntax {
  const segments = [first.text];
  while (tokens.accept('.')) segments.push(tokens.expect('word', "a field name after '.'").text);
  return { segments, column: first.column };
}
