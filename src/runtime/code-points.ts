/**
 * Counting and cutting Unicode code points (what the spec calls characters) without `[...text]`,
 * which builds an array of every character: the prompt estimate counts the whole history before
 * every model call, and previews cut a few characters off messages of any length.
 */
export function codePointLength(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    count += 1;
  }
  return count;
}

/** The first `count` code points. */
export function firstCodePoints(text: string, count: number): string {
  if (count <= 0) return '';
  let taken = 0;
  let end = 0;
  for (const char of text) {
    if (taken === count) break;
    end += char.length;
    taken += 1;
  }
  return text.slice(0, end);
}

/** The last `count` code points. */
export function lastCodePoints(text: string, count: number): string {
  if (count <= 0) return '';
  let taken = 0;
  let start = text.length;
  while (start > 0 && taken < count) {
    const unit = text.charCodeAt(start - 1);
    const pairStart = start >= 2 ? text.charCodeAt(start - 2) : 0;
    const isPair = unit >= 0xdc00 && unit <= 0xdfff && pairStart >= 0xd800 && pairStart <= 0xdbff;
    start -= isPair ? 2 : 1;
    taken += 1;
  }
  return text.slice(start);
}
