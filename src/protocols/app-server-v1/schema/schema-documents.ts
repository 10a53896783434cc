/**
 * The 26 published schema documents of docs/spec/protocol.md §11.2 plus the history.md results, generated from the single source: the
 * registry's DTOs (params), the message definitions (results, notifications, data types) and the
 * envelope builders. Pure and deterministic.
 */
import { findMessageDefinition, schemaDocument, type SchemaDocument } from '../messages';
import { CLIENT_METHODS } from '../registry';
import {
  clientRequestDocument,
  jsonRpcMessageDocument,
  serverNotificationDocument,
  serverRequestDocument,
} from './envelope-schemas';
import { paramsSchemas } from './params-schema';

/** Exactly the names of §11.2, sorted. There is no `TurnStartParams` file and no `turn/resume` type. */
export const SCHEMA_NAMES = [
  'AppItem',
  'AppModelInfo',
  'AppThread',
  'AppTokenUsage',
  'AppTurn',
  'ApprovalDecision',
  'ApprovalRequestParams',
  'ApprovalResolveParams',
  'ApprovalResponse',
  'ClientRequest',
  'InitializeParams',
  'InitializeResponse',
  'JsonRpcMessage',
  'McpServerListResponse',
  'ModelListResponse',
  'SchemaExportResponse',
  'ServerNotification',
  'ServerRequest',
  'ThreadArchiveResponse',
  'ThreadCompactResponse',
  'ThreadForkResponse',
  'ThreadListResponse',
  'ThreadMetadataUpdateResponse',
  'ThreadReadResponse',
  'ThreadResumeResponse',
  'ThreadStartResponse',
  'ThreadUnsubscribeResponse',
  'TurnControlResponse',
  'TurnInterruptResponse',
  'TurnStartResponse',
] as const;

export type SchemaName = (typeof SCHEMA_NAMES)[number];

const ENVELOPE_DOCUMENTS = new Map<string, () => SchemaDocument>([
  ['ClientRequest', clientRequestDocument],
  ['ServerNotification', serverNotificationDocument],
  ['ServerRequest', serverRequestDocument],
  ['JsonRpcMessage', jsonRpcMessageDocument],
]);

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
