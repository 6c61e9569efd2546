/**
 * A query parameter the service cannot run: a `where`, `sort`, `filter` or `facet` that does not
 * parse or names what the resource lacks, or a search option out of range. The HTTP layer answers
 * it as 400 `InvalidInput` with this message, written for the API user. A place in the
 * parameter's text is a 1-based column, as editors count, in both languages.
 */
export class ParameterError extends Error {
  override readonly name = 'ParameterError';

  constructor(
    /** The query parameter at fault, e.g. "where" or "filter". */
    readonly parameter: string,
    message: string,
    /** The 1-based column of the offending character, when the problem has a place. */
    readonly column?: number,
  ) {
    super(message);
  }
}
