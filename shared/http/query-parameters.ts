import { leadingText } from '../domain/abbreviate';
import { InvalidInputError } from '../domain/errors';
import { QueryParameters as DomainQueryParameters } from '../domain/query-parameters';

/**
 * The HTTP adapter's parse of a request's query parameters into the shape the services take.
 * Read from the raw query string, because API Gateway's payload 2.0 joins repeated keys with
 * commas in `queryStringParameters` and commas inside values must survive. `+` is a space and
 * repeated keys stay repeated.
 */
export class QueryParameters extends DomainQueryParameters {
  constructor(rawQueryString: string | undefined) {
    super(parseQueryString(rawQueryString));
  }
}

export function parseQueryString(rawQueryString: string | undefined): Map<string, string[]> {
  const entries = new Map<string, string[]>();
  for (const pair of (rawQueryString ?? '').split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const name = decode(separator === -1 ? pair : pair.slice(0, separator));
    const value = separator === -1 ? '' : decode(pair.slice(separator + 1));
    entries.set(name, [...(entries.get(name) ?? []), value]);
  }
  return entries;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new InvalidInputError(`The query string is not correctly percent-encoded near '${leadingText(text, 40)}'.`);
  }
}
