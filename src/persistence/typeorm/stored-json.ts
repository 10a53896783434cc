/** JSON columns: written with JSON.stringify, read back with a shape check so bad rows fail loudly. */
import { StoreError } from './store-errors';

export function parseJsonObject(text: string, column: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new StoreError(`${column} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

export function parseJsonObjectArray(text: string, column: string): Record<string, unknown>[] {
  const value: unknown = JSON.parse(text);
  if (
    !Array.isArray(value) ||
    !value.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e))
  ) {
    throw new StoreError(`${column} is not a JSON array of objects`);
  }
  return value as Record<string, unknown>[];
}
