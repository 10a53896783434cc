/**
 * runtime-guide.md "Custom tools" and "Approvals": a function tool with a JSON Schema, typed
 * metadata and an approval predicate; a provider that auto-allows some calls and leaves the rest to
 * whoever holds the RunHandle.
 */
import {
  Agent,
  Runner,
  ScriptedModelProvider,
  finish,
  type ApprovalDecision,
  type ApprovalProvider,
  type ApprovalRequest,
  type RunResult,
  type ToolDefinition,
} from 'vv-agent-app-server';

// #region tool
/** Where tickets go; a real product would call its issue tracker here. */
export interface TicketTracker {
  create(ticket: { title: string; priority: string }, signal: AbortSignal): Promise<string>;
}

export function createTicketTool(tracker: TicketTracker): ToolDefinition {
  return {
    name: 'create_ticket',
    description: 'Create a ticket in the issue tracker. Use priority "high" only for outages.',
    // Draft 2020-12. Registration closes every object schema (additionalProperties: false), and the
    // runtime validates the arguments before the handler runs or any approval is asked.
    parameters: {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, description: 'One-line summary.' },
        priority: { type: 'string', enum: ['low', 'high'] },
      },
      required: ['title', 'priority'],
    },
    // Typed metadata (vv-agent.tool-metadata.v2): shown to App Server clients as toolMetadata and used
    // by the approval policy. `write` asks under "untrusted" only ...
    toolMetadata: { side_effect: 'write', idempotency: 'unsupported', capability_tags: ['tickets'] },
    // ... and this predicate asks under "on-request" too, for high-priority tickets.
    needsApproval: (args) => args.priority === 'high',
    timeoutMs: 10_000,
    async handler(ctx, args) {
      const id = await tracker.create(
        { title: String(args.title), priority: String(args.priority) },
        ctx.signal,
      );
      return { type: 'json', value: { ok: true, id } };
    },
  };
}
// #endregion tool

// #region approvals
/** Auto-allows low-risk calls; returns null for the others so the run waits for `handle.approve`. */
export const operatorApprovals: ApprovalProvider = {
  shouldRequest: () => true,
  async decide(request: ApprovalRequest): Promise<ApprovalDecision | null> {
    return request.arguments.priority === 'low' ? { action: 'allow', reason: 'low priority' } : null;
  },
};

export async function fileTicketWithApproval(
  tracker: TicketTracker,
  workspace: string,
  approve: (request: { toolName: string; arguments: Record<string, unknown> }) => boolean,
): Promise<RunResult> {
  const modelProvider = new ScriptedModelProvider({
    steps: [
      {
        content: 'Filing the ticket.',
        tool_calls: [
          { id: 'call_t', name: 'create_ticket', arguments: { title: 'Site is down', priority: 'high' } },
        ],
      },
      finish('Ticket filed.'),
    ],
  });
  const agent = Agent.create({
    name: 'triage',
    instructions: 'File tickets for incidents.',
    tools: [createTicketTool(tracker)],
  });
  const handle = new Runner({ modelProvider, workspace }).start(agent, 'The site is down', {
    approvalPolicy: 'on-request',
    approvalProvider: operatorApprovals,
    approvalTimeoutMs: 60_000, // the broker answers `timeout` after a minute
  });
  for await (const event of handle.events()) {
    if (event.type !== 'approval_requested') continue;
    const args = (event.metadata?.arguments ?? {}) as Record<string, unknown>;
    const decision: ApprovalDecision = approve({ toolName: event.tool_name, arguments: args })
      ? { action: 'allow' }
      : { action: 'deny', reason: 'Not approved by the operator.' };
    await handle.approve(event.request_id, decision);
  }
  return handle.result();
}
// #endregion approvals
