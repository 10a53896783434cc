/** JSON as it arrives from the server: every value is untrusted data, never markup (docs/spec/inspector.md §3). */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue | undefined;
}

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringOf(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function numberOf(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

export function objectOf(value: JsonValue | undefined): JsonObject {
  return isObject(value) ? value : {};
}

export function arrayOf(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}
