import { ParameterError } from '../language/parameter-error';
import type { ExpressionSource } from './expression-ast';

/** A search request the engine refuses: the one error type of the query languages. */
export { ParameterError as SearchError };

/** The usual shape: `Malformed parameter: filter: Unknown field 'x'.` */
export function malformedParameter(parameter: string, detail: string): ParameterError {
  return new ParameterError(parameter, `Malformed parameter: ${parameter}: ${detail}`);
}

/** A syntax error pointing at a 1-based column of the expression. */
export function syntaxError(source: ExpressionSource, detail: string, column: number): ParameterError {
  return new ParameterError(source.parameter, `Malformed parameter: ${source.parameter}: ${detail} at column ${column} of '${source.text}'.`, column);
}
