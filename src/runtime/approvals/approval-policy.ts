/** Whether a tool call needs approval (docs/spec/runtime.md §8.1; a tool's `approvalOverride` first, docs/spec/mcp.md §4). */
import type { ToolContext, ToolDefinition, ToolSideEffect } from '../tools/types';
import type { ApprovalPolicy } from './types';

const ON_REQUEST_SIDE_EFFECTS: readonly ToolSideEffect[] = ['execute', 'network', 'external'];
const UNTRUSTED_SIDE_EFFECTS: readonly ToolSideEffect[] = ['write', ...ON_REQUEST_SIDE_EFFECTS];

type ApprovalPredicate = (args: Record<string, unknown>, ctx: ToolContext) => boolean;

/** A predicate that throws cannot vouch for the call, so it counts as "approval required". */
function predicateRequires(
  predicate: ApprovalPredicate,
  args: Record<string, unknown>,
  ctx: ToolContext,
): boolean {
  try {
    return predicate(args, ctx);
  } catch {
    return true;
  }
}

export function requiresApproval(
  tool: Pick<ToolDefinition, 'needsApproval' | 'toolMetadata' | 'approvalOverride'>,
  args: Record<string, unknown>,
  policy: ApprovalPolicy,
  ctx: ToolContext,
): boolean {
  if (tool.approvalOverride !== undefined) return tool.approvalOverride === 'always';
  if (policy === 'never') return false;
  const declared = tool.needsApproval;
  if (declared === true) return true;
  if (typeof declared === 'function' && predicateRequires(declared, args, ctx)) return true;
  const sideEffect = tool.toolMetadata?.side_effect ?? 'unknown';
  const gated = policy === 'untrusted' ? UNTRUSTED_SIDE_EFFECTS : ON_REQUEST_SIDE_EFFECTS;
  return gated.includes(sideEffect);
}
