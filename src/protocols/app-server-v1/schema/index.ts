/**
 * `vv-agent-app-server/schema`: the committed protocol schemas (docs/spec/protocol.md §11.1) — the same bytes
 * `schema/export` serves. The files themselves are also published under
 * `vv-agent-app-server/schema/app-server/json/<Name>.json` and `…/schema/app-server/typescript/<Name>.ts`.
 */
export { committedSchemaFiles as appServerSchemaFiles } from './committed-schema-files';
export type { SchemaFileSet } from './schema-files';
