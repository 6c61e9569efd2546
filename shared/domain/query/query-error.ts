import { ParameterError } from '../language/parameter-error';

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
export function queryError(parameter: 'where' | 'sort', problem: string, { column, expected }: QueryErrorPlace = {}): ParameterError {
  const where = column === undefined ? '' : ` at column ${column}`;
  const hint = expected === undefined ? '' : ` (expected ${expected})`;
  return new ParameterError(parameter, `Malformed parameter: ${parameter}: ${problem}${where}${hint}.`, column);
}
