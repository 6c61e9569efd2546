/** `application/json` or `application/<subtype>+json`, the subtype of token characters (RFC 9110 §5.6.2). */
const JSON_MEDIA_TYPE = /^application\/([!#$%&'*+.^_`|~0-9a-z-]+\+)?json$/i;

/**
 * Whether a request's Content-Type names JSON (`application/json`, `application/<x>+json`, with
 * parameters): the rule of middy's JSON body parser, which parses the body after this check, but
 * case-insensitive, as media types are (RFC 9110 §8.3.1).
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  const [mediaType, parameters] = splitContentType(contentType ?? '');
  return JSON_MEDIA_TYPE.test(mediaType) && (parameters === undefined || /^;./.test(parameters));
}

/**
 * Whether an answer's Content-Type names JSON, read as RFC 9110 §5.6.6 allows: spaces around
 * `;`, empty parameters (`application/json ; charset=utf-8`, `application/json;`).
 */
export function namesJsonMediaType(contentType: string): boolean {
  return JSON_MEDIA_TYPE.test(splitContentType(contentType)[0].trim());
}

/** The media type, and what follows it from the first `;` on. */
function splitContentType(contentType: string): [string, string | undefined] {
  const separator = contentType.indexOf(';');
  return separator === -1 ? [contentType, undefined] : [contentType.slice(0, separator), contentType.slice(separator)];
}
