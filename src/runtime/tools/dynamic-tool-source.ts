/**
 * Tools that can change while a run is going: an MCP server announcing
 * `notifications/tools/list_changed` (docs/spec/mcp.md §2) must be visible to the model at its next call,
 * not only at the next run.
 */
import type { ToolDefinition } from './types';

/** Something the run's events should say about the source (e.g. an MCP server that did not start). */
export interface ToolSourceWarning {
  code: string;
  message: string;
}

export interface DynamicToolSource {
  /** The source's current tools, appended after the agent's own tools. */
  tools(): readonly ToolDefinition[];
  /**
   * Called before every model call. Re-reads the tools when the source learned of a change (or
   * gets them ready, the first time) and resolves true when `tools()` now returns a different
   * list. Never rejects: a source that cannot re-read keeps its last list. `signal` is the run's:
   * once it aborts (the run is cancelled) the source stops waiting and resolves false.
   */
  refresh(signal: AbortSignal): Promise<boolean>;
  /** Warnings since the last call, reported once each as `diagnostic` events of the run. */
  takeWarnings?(): ToolSourceWarning[];
}
