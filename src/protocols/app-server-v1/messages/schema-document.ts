/**
 * Turns a fragment into a self-contained draft 2020-12 document (docs/spec/protocol.md §11.3): `$schema`,
 * `title`, the root keywords, then every definition it references (transitively) under `$defs`,
 * sorted by name. The output is plain JSON in a deterministic member order.
 */
import { definitionInfo, type DefinitionInfo, type JsonSchema } from '../../../core/model/schema-dsl';

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export type SchemaDocument = Record<string, unknown>;

/** Collects the definitions referenced anywhere inside `fragment`, each once. */
function collectDefinitions(fragment: unknown, found: Map<string, DefinitionInfo>): void {
  if (Array.isArray(fragment)) {
    for (const element of fragment) collectDefinitions(element, found);
    return;
  }
  if (typeof fragment !== 'object' || fragment === null) return;
  const info = definitionInfo(fragment);
  if (info !== undefined) {
    const known = found.get(info.name);
    if (known !== undefined) {
      if (known.schema !== info.schema) throw new Error(`two schema definitions are named ${info.name}`);
      return;
    }
    found.set(info.name, info);
    collectDefinitions(info.schema, found);
    return;
  }
  for (const value of Object.values(fragment)) collectDefinitions(value, found);
}

/** Plain JSON: drops the definition links and keeps member order. */
function plain(fragment: unknown): unknown {
  return JSON.parse(JSON.stringify(fragment)) as unknown;
}

/**
 * The document titled `title` whose root is `root` (a definition's own schema when `root` is a
 * reference made by `define`). Extra `$defs` can be supplied for names that are not definitions
 * (e.g. `RequestId`).
 */
export function schemaDocument(
  title: string,
  root: JsonSchema,
  extraDefs: Record<string, JsonSchema> = {},
): SchemaDocument {
  const rootInfo = definitionInfo(root);
  const rootSchema = rootInfo?.schema ?? root;
  const found = new Map<string, DefinitionInfo>();
  collectDefinitions(rootSchema, found);

  const defs: Record<string, unknown> = {};
  const names = [...new Set([...found.keys(), ...Object.keys(extraDefs)])].sort();
  for (const name of names) {
    const info = found.get(name);
    defs[name] = plain(info !== undefined ? info.schema : extraDefs[name]);
  }
  const document: SchemaDocument = {
    $schema: JSON_SCHEMA_DIALECT,
    title,
    ...(plain(rootSchema) as Record<string, unknown>),
  };
  if (names.length > 0) document.$defs = defs;
  return document;
}
