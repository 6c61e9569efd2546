import type { ExpressionSource } from './expression-ast';

/**
 * A search request the engine refuses. The HTTP layer answers it with 400 `InvalidInput`;
 * `parameter` names the query parameter at fault and the message says what is wrong and where.
 */
export class SearchError extends Error {
  override readonly name = 'SearchError';
  readonly parameter: string;

  constructor(parameter: string, message: string) {
    super(message);
    this.parameter = parameter;
  }
}

/** The usual shape: `Malformed parameter: filter: Unknown field 'x'.` */
export function malformedParameter(parameter: string, detail: string): SearchError {
  return new SearchError(parameter, `Malformed parameter: ${parameter}: ${detail}`);
}

/** A syntax error pointing at a 1-based column of the expression. */
export function syntaxError(source: ExpressionSource, detail: string, column: number): SearchError {
  return malformedParameter(source.parameter, `${detail} at column ${column} of '${source.text}'.`);
}
