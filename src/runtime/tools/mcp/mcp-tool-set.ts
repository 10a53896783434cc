/**
 * The MCP tools of one run as a dynamic tool source (mcp.md §2): the started servers' tools, and
 * again after a server announces `notifications/tools/list_changed`, before the next model call.
 */
import type { ApprovalPolicy } from '../../approvals/types';
import type { DynamicToolSource } from '../dynamic-tool-source';
import type { ToolDefinition } from '../types';
import {
  MCP_TOOL_METADATA_KEY,
  mcpToolDefinitions,
  type McpServerHandle,
  type McpToolPayload,
} from './mcp-tool-source';

export class McpToolSet implements DynamicToolSource {
  private current: ToolDefinition[] = [];
  /** Exposed name → `payload.mcp` of every tool this run has seen (a name never changes meaning). */
  readonly payloads = new Map<string, McpToolPayload>();

  constructor(
    private readonly handles: readonly McpServerHandle[],
    private readonly policy: ApprovalPolicy,
  ) {
    this.adopt();
  }

  tools(): readonly ToolDefinition[] {
    return this.current;
  }

  async refresh(): Promise<boolean> {
    const reread = await Promise.all(this.handles.map((handle) => handle.refreshTools()));
    if (!reread.some(Boolean)) return false;
    // A re-read list may differ in names, descriptions or schemas: the model gets it as it is now.
    this.adopt();
    return true;
  }

  private adopt(): void {
    this.current = mcpToolDefinitions(this.handles, this.policy);
    for (const tool of this.current) {
      this.payloads.set(tool.name, tool.metadata?.[MCP_TOOL_METADATA_KEY] as McpToolPayload);
    }
  }
}
