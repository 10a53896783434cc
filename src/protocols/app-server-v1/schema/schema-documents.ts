/**
 * The 26 published schema documents of docs/spec/protocol.md §11.2 plus the history.md results, generated from the single source: the
 * registry's DTOs (params), the message definitions (results, notifications, data types) and the
 * envelope builders. Pure and deterministic.
 */
import { findMessageDefinition, schemaDocument, type SchemaDocument } from '../messages';
import { CLIENT_METHODS, METHOD_INDEX, SERVER_REQUESTS, type MethodIndexEntry } from '../registry';
import {
  clientRequestDocument,
  jsonRpcMessageDocument,
  serverNotificationDocument,
  serverRequestDocument,
} from './envelope-schemas';
import { paramsSchemas } from './params-schema';

const ENVELOPE_DOCUMENTS = new Map<string, () => SchemaDocument>([
  ['ClientRequest', clientRequestDocument],
  ['ServerNotification', serverNotificationDocument],
  ['ServerRequest', serverRequestDocument],
  ['JsonRpcMessage', jsonRpcMessageDocument],
]);

/** The data types §11.2 publishes as files of their own. */
const PUBLISHED_DATA_TYPES = [
  'AppItem',
  'AppModelInfo',
  'AppThread',
  'AppTokenUsage',
  'AppTurn',
  'ApprovalDecision',
];

function publishedTypesOf(entry: MethodIndexEntry): (string | null)[] {
  const { paramsTypeName, resultTypeName, schemaFiles } = entry;
  if (schemaFiles === 'result') return [resultTypeName];
  if (schemaFiles === 'params') return [paramsTypeName];
  if (schemaFiles === 'params and result') return [paramsTypeName, resultTypeName];
  return [];
}

/**
 * Exactly the names of §11.2 plus the history.md / mcp.md results, sorted: the envelopes, the published
 * data types, the server request's params and result, and each method definition's `schemaFiles`.
 * There is no `TurnStartParams` file and no `turn/resume` type.
 */
export const SCHEMA_NAMES: readonly string[] = [
  ...new Set([
    ...ENVELOPE_DOCUMENTS.keys(),
    ...PUBLISHED_DATA_TYPES,
    ...SERVER_REQUESTS.flatMap((spec) => [spec.paramsTypeName, spec.resultTypeName]),
    ...METHOD_INDEX.flatMap(publishedTypesOf).filter((name): name is string => name !== null),
  ]),
].sort();

export type SchemaName = (typeof SCHEMA_NAMES)[number];

function paramsDocument(name: string): SchemaDocument | undefined {
  const spec = CLIENT_METHODS.find((s) => s.paramsTypeName === name);
  if (spec === undefined || spec.paramsDto === null) return undefined;
  const { root, nested } = paramsSchemas(spec.paramsDto);
  return schemaDocument(name, root, nested);
}

/** The document named `name`: an envelope, a client params type, or a message definition. */
export function buildSchemaDocument(name: string): SchemaDocument {
  const envelope = ENVELOPE_DOCUMENTS.get(name);
  if (envelope !== undefined) return envelope();
  const params = paramsDocument(name);
  if (params !== undefined) return params;
  const definition = findMessageDefinition(name);
  if (definition !== undefined) return schemaDocument(name, definition);
  throw new Error(`schema: nothing defines ${name}`);
}
