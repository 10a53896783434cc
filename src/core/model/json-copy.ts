import { setOwnProperty } from '../../runtime/own-property';

/**
 * A deep copy of a JSON-shaped value (plain objects, arrays, primitives) that shares its strings.
 * Strings are immutable, so sharing them is safe; `structuredClone` instead copies every string,
 * and an item or message of a long streamed answer holds one text of megabytes, copied at each
 * snapshot. Anything that is not a plain object or array (a Date, a Map, typed arrays) is still
 * copied with `structuredClone`, so the result is the same as `structuredClone`'s for these values.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((entry: unknown) => copyJson(entry)) as T;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const entry = copyJson((value as Record<string, unknown>)[key]);
    // A `__proto__` key (JSON.parse makes it an own property) would set the copy's prototype.
    if (key === '__proto__') setOwnProperty(copy, key, entry);
    else copy[key] = entry;
  }
  return copy as T;
}
