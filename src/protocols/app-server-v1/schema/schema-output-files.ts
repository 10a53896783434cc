/**
 * What the CLI schema commands write (docs/spec/protocol.md §11.4), as relative path → text. Pure: the
 * commands do the I/O. The texts are the committed bytes; only the bundle is derived from them.
 */
import type { SchemaFileSet } from './schema-files';

export const SCHEMA_BUNDLE_FILE = 'vv_agent_app_server.schemas.json';

/** Objects get their keys in sorted order, at every depth; arrays keep their order. */
export function sortKeysRecursively(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysRecursively);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    sorted[key] = sortKeysRecursively((value as Record<string, unknown>)[key]);
  }
  return sorted;
}

/** `vv-agent app-server schema --out DIR`: `json/<Name>.json` ×26 and the sorted-keys bundle. */
export function jsonSchemaOutputFiles(files: SchemaFileSet): Record<string, string> {
  const output: Record<string, string> = {};
  const bundle: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(files.jsonSchema)) {
    output[`json/${name}.json`] = text;
    bundle[name] = JSON.parse(text) as unknown;
  }
  output[`json/${SCHEMA_BUNDLE_FILE}`] = `${JSON.stringify(sortKeysRecursively(bundle), null, 2)}\n`;
  return output;
}

/** `vv-agent app-server generate-ts --out DIR`: `<Name>.ts` ×26 directly in DIR. */
export function typeScriptOutputFiles(files: SchemaFileSet): Record<string, string> {
  return { ...files.typescript };
}
