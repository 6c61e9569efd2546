import type { PrattParser } from './pratt-parser';
import type { Token } from './token';

/** A field named in an expression: `version`, or `objectTypeProperty.arrayOfIntExample`. */
export interface FieldPathSyntax {
  readonly segments: readonly string[];
  /** Offset of the first name in the source. */
  readonly offset: number;
}

/**
 * `word ("." word)*`, the field paths both languages share, from its first word on (already
 * consumed). Each language's lexer makes `word` and `.` tokens.
 */
export function fieldPathFrom<Tok extends Token>(first: Tok, parser: PrattParser<Tok>): FieldPathSyntax {
  const segments = [first.text];
  while (parser.accept('.')) segments.push(parser.expect('word', "a field name after '.'").text);
  return { segments, offset: first.offset };
}
