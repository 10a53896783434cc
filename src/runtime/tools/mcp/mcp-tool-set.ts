/**
 * The MCP tools of one run as a dynamic tool source (docs/spec/mcp.md §2): the servers start (or are found
 * running) before the run's first model call, inside the run, so a turn waiting for a slow server
 * is already a running turn that interrupt and shutdown reach; a server that fails to start
 * becomes a warning. Later, a server's `notifications/tools/list_changed` re-reads its tools
 * before the next model call.
 */
import type { ApprovalPolicy } from '../../approvals/types';
import type { DynamicToolSource, ToolSourceWarning } from '../dynamic-tool-source';
import { untilAborted } from '../../until-aborted';
import { MCP_SERVER_UNAVAILABLE } from './call-result';
import type { ToolDefinition } from '../types';
import {
  MCP_TOOL_METADATA_KEY,
  mcpToolDefinitions,
  startMcpServers,
  type McpServerHandle,
  type McpToolPayload,
} from './mcp-tool-source';

export class McpToolSet implements DynamicToolSource {
  private current: ToolDefinition[] = [];
  private started = false;
  private warnings: ToolSourceWarning[] = [];
  /** Exposed name → `payload.mcp` of every tool this run has seen (a name never changes meaning). */
  readonly payloads = new Map<string, McpToolPayload>();

  constructor(
    private readonly handles: readonly McpServerHandle[],
    private readonly policy: ApprovalPolicy,
  ) {}

  tools(): readonly ToolDefinition[] {
    return this.current;
  }

  async refresh(signal: AbortSignal): Promise<boolean> {
    if (!this.started) return this.start(signal);
    const reread = await Promise.all(this.handles.map((handle) => handle.refreshTools()));
    if (!reread.some(Boolean)) return false;
    // A re-read list may differ in names, descriptions or schemas: the model gets it as it is now.
    this.adopt();
    return true;
  }

  takeWarnings(): ToolSourceWarning[] {
    const warnings = this.warnings;
    this.warnings = [];
    return warnings;
  }

  /**
   * The first refresh: every server started within its `startupTimeoutSec`, or the run cancelled
   * meanwhile (then no tools, and the starts go on for later turns or end at shutdown).
   */
  private async start(signal: AbortSignal): Promise<boolean> {
    this.started = true;
    if (this.handles.length === 0) return false;
    const failures = await untilAborted(startMcpServers(this.handles), signal);
    if (failures === null) return false;
    for (const failure of failures)
      this.warnings.push({ code: MCP_SERVER_UNAVAILABLE, message: failure.message });
    this.adopt();
    return this.current.length > 0;
  }

  private adopt(): void {
    this.current = mcpToolDefinitions(this.handles, this.policy);
    for (const tool of this.current) {
      this.payloads.set(tool.name, tool.metadata?.[MCP_TOOL_METADATA_KEY] as McpToolPayload);
    }
  }
}
