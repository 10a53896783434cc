/**
 * `session/request_permission` (docs/spec/acp.md §4): the request for a tool call waiting for approval, and
 * the client's outcome as the owner's answer. Pure.
 */
import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import type { OwnerAnswer } from '../../core/approvals/approval-channel';
import type { ApprovalRequestParams } from '../../core/model/types';
import { toolKind, toolTitle } from './tool-presentation';

/** The options, in this order; each `optionId` is the decision of the same name. */
export const PERMISSION_OPTIONS: readonly PermissionOption[] = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_session', name: 'Always allow in this session', kind: 'allow_always' },
  { optionId: 'deny', name: 'Reject', kind: 'reject_once' },
];

const DECISIONS: ReadonlySet<string> = new Set(PERMISSION_OPTIONS.map((option) => option.optionId));

export function permissionRequest(params: ApprovalRequestParams): RequestPermissionRequest {
  return {
    sessionId: params.threadId,
    toolCall: {
      toolCallId: params.toolCallId,
      title: toolTitle(params.toolName, params.arguments),
      kind: toolKind(params.toolName),
      status: 'pending',
      rawInput: params.arguments,
    },
    options: [...PERMISSION_OPTIONS],
  };
}

/** A selected option → its decision; cancelled, an error (null) or an unknown option → deny. */
export function permissionAnswer(response: RequestPermissionResponse | null): OwnerAnswer {
  const outcome = response?.outcome;
  const decision =
    outcome?.outcome === 'selected' && DECISIONS.has(outcome.optionId) ? outcome.optionId : 'deny';
  return { kind: 'result', result: { decision } };
}
