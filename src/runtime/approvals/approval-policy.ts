/** Whether a tool call needs approval (docs/spec/runtime.md §8.1; a tool's `approvalOverride` first, docs/spec/mcp.md §4). */
import type { ToolSideEffect } from '../tool-metadata/types';
import type { ApprovalPolicy } from './types';

const ON_REQUEST_SIDE_EFFECTS: readonly ToolSideEffect[] = ['execute', 'network', 'external'];
const UNTRUSTED_SIDE_EFFECTS: readonly ToolSideEffect[] = ['write', ...ON_REQUEST_SIDE_EFFECTS];

/** A tool's own answer for one call's arguments (`ToolDefinition.needsApproval`). */
type ApprovalPredicate<Context> = (args: Record<string, unknown>, ctx: Context) => boolean;

/**
 * What a tool declares about approval (the matching fields of `ToolDefinition`). `Context` is the
 * tool's call context, which the policy only hands on to the tool's predicate: approvals sit below
 * tools and do not need its shape.
 */
export interface ApprovalDeclaration<Context> {
  needsApproval?: boolean | ApprovalPredicate<Context>;
  toolMetadata?: { side_effect?: ToolSideEffect };
  approvalOverride?: 'always' | 'never';
}

/** A predicate that throws cannot vouch for the call, so it counts as "approval required". */
function predicateRequires<Context>(
  predicate: ApprovalPredicate<Context>,
  args: Record<string, unknown>,
  ctx: Context,
): boolean {
  try {
    return predicate(args, ctx);
  } catch {
    return true;
  }
}

export function requiresApproval<Context>(
  tool: ApprovalDeclaration<Context>,
  args: Record<string, unknown>,
  policy: ApprovalPolicy,
  ctx: Context,
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
