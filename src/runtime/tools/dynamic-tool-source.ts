/**
 * Tools that can change while a run is going: an MCP server announcing
 * `notifications/tools/list_changed` (mcp.md §2) must be visible to the model at its next call,
 * not only at the next run.
 */
import type { ToolDefinition } from './types';

export interface DynamicToolSource {
  /** The source's current tools, appended after the agent's own tools. */
  tools(): readonly ToolDefinition[];
  /**
   * Called before every model call. Re-reads the tools when the source learned of a change and
   * resolves true when `tools()` now returns a different list. Never rejects: a source that cannot
   * re-read keeps its last list.
   */
  refresh(): Promise<boolean>;
}
