/**
 * A query parameter (`where`, `sort`, ...) the service cannot run. The HTTP layer answers it
 * as 400 `InvalidInput` with this message, so the message is written for the API user: it names
 * the parameter, the problem, where in the parameter's text it is, and what was expected there.
 *
 *   Malformed parameter: where: Unexpected token ')' at position 14 (expected a value).
 */
export class QueryError extends Error {
  override readonly name = 'QueryError';
  /** The query parameter at fault, e.g. "where" or "sort". */
  readonly parameter: string;
  /** Zero-based character offset into that parameter's text, when the problem has a place. */
  readonly position?: number;

  constructor(parameter: string, problem: string, details: QueryErrorDetails = {}) {
    super(formatMessage(parameter, problem, details));
    this.parameter = parameter;
    if (details.position !== undefined) this.position = details.position;
  }
}

export interface QueryErrorDetails {
  readonly position?: number;
  /** What would have been valid at that place, e.g. "a value" or "'asc' or 'desc'". */
  readonly expected?: string;
}

function formatMessage(parameter: string, problem: string, { position, expected }: QueryErrorDetails): string {
  const where = position === undefined ? '' : ` at position ${position}`;
  const hint = expected === undefined ? '' : ` (expected ${expected})`;
  return `Malformed parameter: ${parameter}: ${problem}${where}${hint}.`;
}
