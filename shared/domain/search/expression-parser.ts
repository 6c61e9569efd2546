/**
 * The grammar of filter and facet expressions (commercetools product search syntax), as rules
 * for the shared Pratt parser:
 *
 *   filter     := fieldPath ':' condition
 *   facet      := fieldPath [':' condition] ['as' name]
 *   fieldPath  := word ('.' word)*
 *   condition  := 'exists' | 'missing' | item (',' item)*
 *   item       := number | string | ['range'] '(' bound 'to' bound ')'
 *   bound      := number | string | '*'
 *
 * There are no operators with precedence here: `itemRules` and `boundRules` are prefix tables
 * (which token begins which form). Keywords are case-sensitive, as in commercetools.
 */
import { fieldPathFrom } from '../language/field-path';
import { PrattParser, PrattRules, type Language } from '../language/pratt-parser';
import type { TokenOfType } from '../language/token';
import type {
  Bound,
  Condition,
  ExpressionSource,
  FacetExpression,
  FieldReference,
  FilterExpression,
  RangeItem,
  TermItem,
  ValueItem,
} from './expression-ast';
import { expressionLexer, type ExpressionToken } from './expression-lexer';
import { syntaxError } from './search-error';

export function parseFilterExpression(source: ExpressionSource): FilterExpression {
  const parser = parserFor(source);
  const field = fieldReference(parser);
  const condition = conditionAfterColon(parser);
  parser.expectEnd(whatMayFollow(condition, { alias: false }));
  return { source, field, condition };
}

export function parseFacetExpression(source: ExpressionSource): FacetExpression {
  const parser = parserFor(source);
  const field = fieldReference(parser);
  const condition = parser.isAt(':') ? conditionAfterColon(parser) : undefined;
  const alias = parser.acceptKeyword('as') ? parser.expect('word', "a facet name after 'as'").text : undefined;
  parser.expectEnd(alias === undefined ? whatMayFollow(condition, { alias: true }) : 'the end of the expression');
  return { source, field, condition, alias };
}

type Parser = PrattParser<ExpressionToken>;

/** For error messages: what could have come instead of the token found after an expression. */
function whatMayFollow(condition: Condition | undefined, allows: { alias: boolean }): string {
  const continuations = [
    ...(condition === undefined ? ["':'"] : condition.kind === 'values' ? ["','"] : []),
    ...(allows.alias ? ["'as'"] : []),
  ];
  const end = 'the end of the expression';
  return continuations.length === 0 ? end : `${continuations.join(', ')} or ${end}`;
}

function fieldReference(parser: Parser): FieldReference {
  const path = fieldPathFrom(parser.expect('word', 'a field name'), parser);
  return { path: path.segments.join('.'), column: path.offset + 1 };
}

function conditionAfterColon(parser: Parser): Condition {
  parser.expect(':', "':'");
  if (parser.acceptKeyword('exists')) return { kind: 'exists' };
  if (parser.acceptKeyword('missing')) return { kind: 'missing' };
  const item = () => parser.parse(itemRules, 'a number, a "quoted string", range(from to to), exists or missing');
  return { kind: 'values', items: parser.separated(',', item) };
}

const itemRules = new PrattRules<ExpressionToken, ValueItem>()
  .prefix('number', term)
  .prefix('string', term)
  .prefixKeyword('range', (keyword, parser) => {
    parser.expect('(', "'('");
    return rangeFrom(keyword, parser);
  })
  // commercetools lists further ranges without repeating the keyword: `range (1 to 5), (7 to 9)`
  .prefix('(', (open, parser) => rangeFrom(open, parser));

function term(token: TokenOfType<ExpressionToken, 'number' | 'string'>): TermItem {
  return { kind: 'term', value: token.value, text: token.text, column: token.offset + 1 };
}

/** The rest of a range after its `(`; `start` (`range` or the `(`) is where the range's text begins. */
function rangeFrom(start: ExpressionToken, parser: Parser): RangeItem {
  const from = bound(parser);
  parser.expectKeyword('to', "'to'");
  const to = bound(parser);
  const close = parser.expect(')', "')'");
  return { kind: 'range', from, to, text: parser.textBetween(start, close), column: start.offset + 1 };
}

const boundRules = new PrattRules<ExpressionToken, Bound>()
  .prefix('number', (token) => ({ value: token.value, text: token.text }))
  .prefix('string', (token) => ({ value: token.value, text: token.text }))
  .prefix('*', () => undefined);

function bound(parser: Parser): Bound {
  return parser.parse(boundRules, 'a number, a "quoted string" or * for an open end');
}

/** Errors point at 1-based columns of the expression and name the parameter it came in. */
function parserFor(source: ExpressionSource): Parser {
  const language: Language<ExpressionToken> = {
    errors: {
      at: (problem, offset) => syntaxError(source, problem, offset + 1),
      unexpected(token, expected) {
        const found = token.type === 'end' ? 'the end of the expression' : `'${token.text}'`;
        return syntaxError(source, `Expected ${expected} but found ${found}`, token.offset + 1);
      },
    },
    keywordOf: (token) => (token.type === 'word' ? token.text : undefined),
  };
  return new PrattParser(source.text, expressionLexer, language);
}
