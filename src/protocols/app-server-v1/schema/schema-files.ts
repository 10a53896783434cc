/**
 * The committed schema files as generated in memory (docs/spec/protocol.md §11.1, §11.3): `<Name>.json` as
 * `JSON.stringify(schema, null, 2) + "\n"` and `<Name>.ts`, in `SCHEMA_NAMES` order. Used by
 * `npm run schema:write` and by the drift test; the running server never calls it.
 */
import { buildSchemaDocument, SCHEMA_NAMES } from './schema-documents';
import { emitTypeScript } from './typescript-emitter';

/** Same shape as the `schema/export` result: `<Name>` → JSON text, `<Name>.ts` → TypeScript text. */
export interface SchemaFileSet {
  jsonSchema: Record<string, string>;
  typescript: Record<string, string>;
}

export function generateSchemaFiles(): SchemaFileSet {
  const files: SchemaFileSet = { jsonSchema: {}, typescript: {} };
  for (const name of SCHEMA_NAMES) {
    const document = buildSchemaDocument(name);
    files.jsonSchema[name] = `${JSON.stringify(document, null, 2)}\n`;
    files.typescript[`${name}.ts`] = emitTypeScript(document);
  }
  return files;
}
