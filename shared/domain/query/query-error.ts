import { abbreviate } from '../abbreviate';
import { ParameterError } from '../language/parameter-error';
import type { Token } from '../language/token-cursor';

/** The query parameters written in the `where` language's tokens: predicates and sort expressions. */
export type QueryParameter = 'where' | 'sort';

/** Where in the parameter's text a problem is, and what would have been valid there. */
export interface QueryErrorPlace {
  readonly column?: number;
  /** E.g. "a value" or "'asc' or 'desc'". */
  readonly expected?: string;
}

/**
 * A `where` or `sort` the service cannot run, worded for the API user:
 *
 *   Malformed parameter: where: Unexpected token ')' at column 15 (expected a value).
 */
export function queryError(parameter: QueryParameter, problem: string, { column, expected }: QueryErrorPlace = {}): ParameterError {
  const where = column === undefined ? '' : ` at column ${column}`;
  const hint = expected === undefined ? '' : ` (expected ${expected})`;
  return new ParameterError(parameter, `Malformed parameter: ${parameter}: ${problem}${where}${hint}.`, column);
}

/** A long token is quoted by its first 40 characters and "...". */
const MAX_QUOTED_TOKEN = 43;

/** The error for a token where the grammar expected something else. */
export function unexpectedToken(parameter: QueryParameter, token: Token<string>, expected: string): ParameterError {
  const problem = token.kind === 'end' ? 'Unexpected end of input' : `Unexpected token '${abbreviate(token.text, MAX_QUOTED_TOKEN)}'`;
  return queryError(parameter, problem, { column: token.column, expected });
}
