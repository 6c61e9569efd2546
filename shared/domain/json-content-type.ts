/**
 * Whether a Content-Type names JSON (`application/json`, `application/<x>+json`, with parameters):
 * the rule of middy's JSON body parser, but case-insensitive, as media types are (RFC 9110 §8.3.1).
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  return /^application\/(.+\+)?json($|;.+)/i.test(contentType ?? '');
}
