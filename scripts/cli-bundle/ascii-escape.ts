/**
 * esbuild escapes non-ASCII characters in strings but leaves them in regular expression literals
 * and comments. Escaping those as well makes the bundle ASCII, so the loader reads it as latin1 and
 * V8 holds a one-byte string: half the memory of a two-byte one, no UTF-8 decoding. `\uXXXX` is the
 * same character in a regular expression; an identity escape (`\é`) loses its backslash, and a
 * backslash that is itself escaped (`\\é`) stays.
 */
export function escapeNonAscii(text: string): string {
  return text.replace(/(\\*)([\u0080-\uffff])/g, (_match, slashes: string, character: string) => {
    const kept = slashes.slice(0, slashes.length - (slashes.length % 2));
    return `${kept}\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
