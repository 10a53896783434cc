/**
 * Params of the server notifications and of the `approval/request` server request (docs/spec/protocol.md §4),
 * named as the registry's `paramsTypeName`s, and the client's answer to the server request.
 */
import {
  AppThread,
  ApprovalDecision,
  ThreadStatus,
  agentMessageDeltaShape,
  approvalRequestShape,
  approvalResolutionShape,
  errorWarningShape,
  threadArchivalShape,
  toolCallDeltaShape,
  turnCompletionShape,
} from '../../../core/model/data-types';
import { define, jsonObject, object, optional, string } from '../../../core/model/schema-dsl';

export { ThreadStartedParams } from './results';

/** The same members as the `thread/archive` result. */
export const ThreadArchivedParams = define('ThreadArchivedParams', threadArchivalShape);

export const ThreadClosedParams = define('ThreadClosedParams', object({ threadId: string() }));

export const ThreadStatusChangedParams = define(
  'ThreadStatusChangedParams',
  object({ threadId: string(), status: ThreadStatus }),
);

/** Exactly `threadId` and `turnId` (§4.5). */
export const TurnStartedParams = define(
  'TurnStartedParams',
  object({ threadId: string(), turnId: string() }),
);

// §4.6
export const TurnCompletedParams = define('TurnCompletedParams', turnCompletionShape);

/** The agentMessage item's identity and state with the appended chunk only, never the accumulated text (§4.8 v1.1). */
export const AgentMessageDeltaParams = define('AgentMessageDeltaParams', agentMessageDeltaShape);

/** The toolCall item right after its `item/started`, plus its arguments (§4.9). */
export const ToolCallDeltaParams = define('ToolCallDeltaParams', toolCallDeltaShape);

/** Params of `approval/requested` and of the `approval/request` server request (§4.11, §4.14). */
export const ApprovalRequestParams = define('ApprovalRequestParams', approvalRequestShape);

export const ApprovalResolvedParams = define('ApprovalResolvedParams', approvalResolutionShape);

export const ErrorWarningParams = define('ErrorWarningParams', errorWarningShape);

/**
 * The client's `result` for `approval/request` (§4.14, §9.4). Client-sent, so not closed: the
 * server also reads `message` as a fallback reason.
 */
export const ApprovalResponse = define(
  'ApprovalResponse',
  object(
    { decision: ApprovalDecision, reason: optional(string()), metadata: optional(jsonObject()) },
    { open: true },
  ),
);

/** docs/spec/history.md §3: after a metadata update, to the requester and the subscribers. */
export const ThreadUpdatedParams = define('ThreadUpdatedParams', object({ thread: AppThread }));
