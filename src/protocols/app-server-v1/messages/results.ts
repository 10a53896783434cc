/**
 * Result types of the client methods (docs/spec/protocol.md §3), named as the registry's `resultTypeName`s.
 * `ApprovalResolveResponse` (`{}`) has no committed schema file (§11.2) but validates client results.
 */
import {
  AppModelInfo,
  AppThread,
  mcpServerListShape,
  threadArchivalShape,
  threadForkShape,
  threadPageShape,
  threadSnapshotShape,
  threadSummaryShape,
  threadUnsubscriptionShape,
  turnCancellationShape,
  turnCompactionShape,
  turnQueuedShape,
  turnStartShape,
  SandboxMode,
} from '../../../core/model/data-types';
import {
  array,
  boolean,
  define,
  literal,
  object,
  optional,
  record,
  string,
} from '../../../core/model/schema-dsl';

export const InitializeCapabilities = define(
  'InitializeCapabilities',
  object({
    modelList: literal(true),
    /** false iff the server was built without a runtime adapter (§2) */
    threadLifecycle: boolean(),
    notificationOptOut: literal(true),
    schemaExport: literal(true),
    approvalResolve: literal(true),
    /** docs/spec/sandbox.md §4: whether the OS sandbox works here, and the server's `--sandbox` mode. */
    sandbox: optional(object({ available: boolean(), maxMode: SandboxMode })),
  }),
);

// §2: exactly these three members.
export const InitializeResponse = define(
  'InitializeResponse',
  object({
    userAgent: literal('vv-agent-app-server'),
    protocolVersion: literal('v1'),
    capabilities: InitializeCapabilities,
  }),
);

export const ThreadStartResponse = define('ThreadStartResponse', threadSummaryShape);
/** `thread/started` params equal the `thread/start` result (§3.3). */
export const ThreadStartedParams = define('ThreadStartedParams', threadSummaryShape);

export const ThreadResumeResponse = define('ThreadResumeResponse', threadSnapshotShape);
export const ThreadReadResponse = define('ThreadReadResponse', threadSnapshotShape);

export const ThreadListResponse = define('ThreadListResponse', threadPageShape);

export const ThreadArchiveResponse = define('ThreadArchiveResponse', threadArchivalShape);

export const ThreadUnsubscribeResponse = define('ThreadUnsubscribeResponse', threadUnsubscriptionShape);

export const TurnStartResponse = define('TurnStartResponse', turnStartShape);

/** `turn/steer` and `turn/followUp`. */
export const TurnControlResponse = define('TurnControlResponse', turnQueuedShape);

export const TurnInterruptResponse = define('TurnInterruptResponse', turnCancellationShape);

export const ApprovalResolveResponse = define('ApprovalResolveResponse', object({}));

export const ModelListResponse = define('ModelListResponse', object({ models: array(AppModelInfo) }));

/** The committed schema files verbatim: `<Name>` → JSON text, `<Name>.ts` → TypeScript text (§11.4). */
export const SchemaExportResponse = define(
  'SchemaExportResponse',
  object({ jsonSchema: record(string()), typescript: record(string()) }),
);

/** `thread/metadata/update` answers the updated thread (docs/spec/history.md §3). */
export const ThreadMetadataUpdateResponse = define('ThreadMetadataUpdateResponse', AppThread);

/** `thread/fork`: the `thread/start` result shape plus the origin (docs/spec/history.md §2). */
export const ThreadForkResponse = define('ThreadForkResponse', threadForkShape);

/** `thread/compact`: the compaction turn just started (docs/spec/history.md §1). */
export const ThreadCompactResponse = define('ThreadCompactResponse', turnCompactionShape);
/** docs/spec/mcp.md §5. */
export const McpServerListResponse = define('McpServerListResponse', mcpServerListShape);
