/**
 * Result types of the client methods (protocol.md §3), named as the registry's `resultTypeName`s.
 * `ApprovalResolveResponse` (`{}`) has no committed schema file (§11.2) but validates client results.
 */
import { initializeResult } from '../initialize-result';
import { AppItem, AppModelInfo, AppThread, AppTurn, ThreadStatus } from './data-types';
import { array, boolean, define, literal, nullable, object, record, string } from './schema-dsl';

const exampleResult = initializeResult(true);

export const InitializeCapabilities = define(
  'InitializeCapabilities',
  object({
    modelList: literal(exampleResult.capabilities.modelList),
    /** false iff the server was built without a runtime adapter (§2) */
    threadLifecycle: boolean(),
    notificationOptOut: literal(exampleResult.capabilities.notificationOptOut),
    schemaExport: literal(exampleResult.capabilities.schemaExport),
    approvalResolve: literal(exampleResult.capabilities.approvalResolve),
  }),
);

// §2: exactly these three members.
export const InitializeResponse = define(
  'InitializeResponse',
  object({
    userAgent: literal(exampleResult.userAgent),
    protocolVersion: literal(exampleResult.protocolVersion),
    capabilities: InitializeCapabilities,
  }),
);

const threadStartShape = object({
  threadId: string(),
  agentKey: string(),
  cwd: nullable(string()),
  status: ThreadStatus,
});

export const ThreadStartResponse = define('ThreadStartResponse', threadStartShape);
/** `thread/started` params equal the `thread/start` result (§3.3). */
export const ThreadStartedParams = define('ThreadStartedParams', threadStartShape);

const threadSnapshotShape = object({ thread: AppThread, turns: array(AppTurn), items: array(AppItem) });

export const ThreadResumeResponse = define('ThreadResumeResponse', threadSnapshotShape);
export const ThreadReadResponse = define('ThreadReadResponse', threadSnapshotShape);

export const ThreadListResponse = define(
  'ThreadListResponse',
  object({ threads: array(AppThread), nextCursor: nullable(string()) }),
);

export const ThreadArchiveResponse = define(
  'ThreadArchiveResponse',
  object({ threadId: string(), archived: literal(true) }),
);

export const ThreadUnsubscribeResponse = define(
  'ThreadUnsubscribeResponse',
  object({ threadId: string(), subscribed: literal(false), closed: boolean() }),
);

export const TurnStartResponse = define(
  'TurnStartResponse',
  object({ threadId: string(), turnId: string(), status: literal('running') }),
);

/** `turn/steer` and `turn/followUp`. */
export const TurnControlResponse = define(
  'TurnControlResponse',
  object({ threadId: string(), turnId: string(), queued: literal(true) }),
);

export const TurnInterruptResponse = define(
  'TurnInterruptResponse',
  object({ threadId: string(), turnId: string(), cancelled: literal(true) }),
);

export const ApprovalResolveResponse = define('ApprovalResolveResponse', object({}));

export const ModelListResponse = define('ModelListResponse', object({ models: array(AppModelInfo) }));

/** The committed schema files verbatim: `<Name>` → JSON text, `<Name>.ts` → TypeScript text (§11.4). */
export const SchemaExportResponse = define(
  'SchemaExportResponse',
  object({ jsonSchema: record(string()), typescript: record(string()) }),
);

/** `thread/metadata/update` answers the updated thread (history.md §3). */
export const ThreadMetadataUpdateResponse = define('ThreadMetadataUpdateResponse', AppThread);

/** `thread/fork`: the `thread/start` result shape plus the origin (history.md §2). */
export const ThreadForkResponse = define(
  'ThreadForkResponse',
  object({
    threadId: string(),
    agentKey: string(),
    cwd: nullable(string()),
    status: ThreadStatus,
    forkedFrom: object({ threadId: string(), turnId: string() }),
  }),
);
