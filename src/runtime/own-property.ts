/**
 * Writes into objects built from client JSON. `object[key] = value` runs the `__proto__` setter of
 * Object.prototype when `key` is `"__proto__"` (JSON.parse makes it an ordinary own member), so the
 * member vanishes and the object's prototype changes instead; defining the property keeps it a
 * member like any other key.
 */
export function setOwnProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
