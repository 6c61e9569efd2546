/**
 * The first `length` UTF-16 units of `text`, one fewer where the cut would split a surrogate pair:
 * half a pair is no text (not UTF-8, and a JSON answer carries it as an escape such as `\ud83d`).
 */
export function leadingText(text: string, length: number): string {
  if (text.length <= length) return text;
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/** `text` for a message: as it is up to `maxLength` units, else cut to `maxLength` with `...`. */
export function abbreviate(text: string, maxLength: number): string {
  return text.length > maxLength ? `${leadingText(text, maxLength - 3)}...` : text;
}
