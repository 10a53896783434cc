/** Approval texts and params derived from runtime approval events (protocol.md §4.11, §4.12, §9.3). */
import type { RunEventOf } from '../../runtime/events/types';
import type { ApprovalDecisionValue, ApprovalResolvedParams } from '../model/types';

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
  // mcp.md §4: an MCP tool's preview is `<server>: <tool> <compact JSON arguments>`.
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

// C0 controls and DEL use `\xHH`, C1 controls `\u00HH` (protocol.md §9.3 v1.1 examples).
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

/** The decision members shared by `approval/resolved` and the completed approval item. */
export interface ApprovalDecisionMembers {
  decision: ApprovalDecisionValue;
  reason?: string;
  metadata?: Record<string, unknown>;
}

/**
 * From an `approval_resolved` event (`action`, `metadata.reason`, `metadata.decision_metadata`):
 * reason omitted when empty, metadata omitted when absent or `{}`.
 */
export function decisionFromResolvedEvent(event: RunEventOf<'approval_resolved'>): ApprovalDecisionMembers {
  const members: ApprovalDecisionMembers = { decision: event.action as ApprovalDecisionValue };
  const reason = event.metadata?.reason;
  if (typeof reason === 'string' && reason.length > 0) members.reason = reason;
  const metadata = event.metadata?.decision_metadata;
  if (isNonEmptyObject(metadata)) members.metadata = structuredClone(metadata);
  return members;
}

/**
 * `approval/resolved` params for a request the runtime resolved on its own (protocol.md §9.2): the
 * approval route emits them before the approval item completes.
 */
export function approvalResolvedFromEvent(
  threadId: string,
  turnId: string,
  event: RunEventOf<'approval_resolved'>,
): ApprovalResolvedParams {
  return { threadId, turnId, requestId: event.request_id, ...decisionFromResolvedEvent(event) };
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
