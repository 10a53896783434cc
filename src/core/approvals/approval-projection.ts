/** Approval texts and params derived from runtime approval events (docs/spec/protocol.md §4.11, §4.12, §9.3). */
import type { RunEventOf } from '../../runtime/events/types';
import type { ApprovalAction, ApprovalDecision } from '../../runtime/approvals/types';
import type { ApprovalDecisionValue, ApprovalResolvedParams } from '../model/types';
import type { ApprovalIdentity } from './approval-answer';

export const APPROVAL_PREVIEW_MAX_CODE_POINTS = 200;

/**
 * `Run <command>` for bash with a string command, else `<toolName> <compact JSON>`; control
 * characters escaped (v1.1, so a dialog or terminal cannot be spoofed with CR or escape sequences),
 * then cut to ≤ 200 code points.
 */
export function approvalPreview(
  toolName: string,
  args: Record<string, unknown>,
  mcp?: { server: string; tool: string },
): string {
  // docs/spec/mcp.md §4: an MCP tool's preview is `<server>: <tool> <compact JSON arguments>`.
  const raw =
    mcp !== undefined
      ? `${mcp.server}: ${mcp.tool} ${JSON.stringify(args)}`
      : toolName === 'bash' && typeof args.command === 'string'
        ? `Run ${args.command}`
        : `${toolName} ${JSON.stringify(args)}`;
  const codePoints = Array.from(escapeControlCharacters(raw));
  if (codePoints.length <= APPROVAL_PREVIEW_MAX_CODE_POINTS) return codePoints.join('');
  return `${codePoints.slice(0, APPROVAL_PREVIEW_MAX_CODE_POINTS - 1).join('')}…`;
}

const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

// C0 controls and DEL use `\xHH`, C1 controls `\u00HH` (docs/spec/protocol.md §9.3 v1.1 examples).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (ch) => {
    const named = NAMED_ESCAPES[ch];
    if (named !== undefined) return named;
    const code = ch.charCodeAt(0);
    const hex = code.toString(16).padStart(2, '0');
    return code <= 0x7f ? `\\x${hex}` : `\\u00${hex}`;
  });
}

/** The decision members shared by `approvalResolved` and the completed approval item. */
export interface ApprovalDecisionMembers {
  decision: ApprovalDecisionValue;
  reason?: string;
  metadata?: Record<string, unknown>;
}

/** Reason omitted when empty, metadata omitted when absent or `{}` (docs/spec/protocol.md §4.12). */
export function decisionMembers(decision: ApprovalDecision): ApprovalDecisionMembers {
  const members: ApprovalDecisionMembers = { decision: decision.action as ApprovalDecisionValue };
  if (decision.reason !== undefined && decision.reason.length > 0) members.reason = decision.reason;
  if (isNonEmptyObject(decision.metadata)) members.metadata = structuredClone(decision.metadata);
  return members;
}

/** The decision an `approval_resolved` event carries (`action`, `metadata.reason`, `metadata.decision_metadata`). */
export function decisionOfResolvedEvent(event: RunEventOf<'approval_resolved'>): ApprovalDecision {
  const reason = event.metadata?.reason;
  const metadata = event.metadata?.decision_metadata;
  return {
    action: event.action as ApprovalAction,
    reason: typeof reason === 'string' ? reason : undefined,
    metadata: isObject(metadata) ? metadata : undefined,
  };
}

export function decisionFromResolvedEvent(event: RunEventOf<'approval_resolved'>): ApprovalDecisionMembers {
  return decisionMembers(decisionOfResolvedEvent(event));
}

/** The `approvalResolved` params of one request and its decision — whoever resolved it. */
export function approvalResolvedParams(
  identity: ApprovalIdentity,
  decision: ApprovalDecision,
): ApprovalResolvedParams {
  return {
    threadId: identity.threadId,
    turnId: identity.turnId,
    requestId: identity.requestId,
    ...decisionMembers(decision),
  };
}

/**
 * `approvalResolved` params for a request the runtime resolved on its own (docs/spec/protocol.md §9.2): the
 * approval route emits them before the approval item completes.
 */
export function approvalResolvedFromEvent(
  threadId: string,
  turnId: string,
  event: RunEventOf<'approval_resolved'>,
): ApprovalResolvedParams {
  return approvalResolvedParams(
    { threadId, turnId, requestId: event.request_id },
    decisionOfResolvedEvent(event),
  );
}

/** The approval event's `metadata.arguments` when it is an object (fallback when no plan was seen). */
export function argumentsFromRequestedEvent(
  event: RunEventOf<'approval_requested'>,
): Record<string, unknown> | null {
  const args = event.metadata?.arguments;
  return isObject(args) ? args : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isNonEmptyObject(value: unknown): value is Record<string, unknown> {
  return isObject(value) && Object.keys(value).length > 0;
}
