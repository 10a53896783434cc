/**
 * MCP servers as a tool source of the runtime (docs/spec/mcp.md §2–§4): lazily started connections, their
 * tools as ordinary ToolDefinitions named `mcp__<server>__<tool>`, restart after a crash.
 */
import { callResultOutput, MCP_SERVER_UNAVAILABLE, MCP_TOOL_TIMEOUT } from './call-result';
import { exposedToolNames } from './exposed-name';
import { mcpParameters } from './input-schema';
import { McpConnection, type McpToolInfo } from './mcp-connection';
import { toolEnabled, type McpServerConfig } from './server-config';
import type { ApprovalPolicy } from '../../approvals/types';
import type { ToolDefinition, ToolOutput } from '../types';
import type { TraceCarrier } from '../../telemetry/telemetry';

export type McpServerStatus = 'notStarted' | 'starting' | 'ready' | 'failed';

export interface McpToolPayload {
  server: string;
  tool: string;
}

/** Metadata key on MCP ToolDefinitions, so projections can add `payload.mcp`. */
export const MCP_TOOL_METADATA_KEY = 'mcp';

export interface McpStartFailure {
  server: string;
  message: string;
}

export class McpServerHandle {
  private connection: McpConnection | null = null;
  private starting: Promise<McpConnection> | null = null;
  /** Ends the start in progress when the handle is closed (shutdown must not wait up to startupTimeoutSec). */
  private startAbort: AbortController | null = null;
  status: McpServerStatus = 'notStarted';
  error: string | undefined;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
  ) {}

  get tools(): McpToolInfo[] {
    return this.connection?.tools ?? [];
  }

  /** Starts (or restarts after an exit) the server; rejects with the start failure. */
  async ensureStarted(): Promise<McpConnection> {
    if (this.connection?.alive) {
      await this.connection.refreshToolsIfChanged();
      return this.connection;
    }
    // Exited or disconnected: end what is left of it before the restart.
    const gone = this.connection;
    this.connection = null;
    await gone?.close();
    if (!this.starting) {
      this.status = 'starting';
      const abort = new AbortController();
      this.startAbort = abort;
      this.starting = McpConnection.start(this.name, this.config, abort.signal).then(
        (connection) => {
          this.connection = connection;
          this.status = 'ready';
          this.error = undefined;
          this.starting = null;
          this.startAbort = null;
          return connection;
        },
        (error: unknown) => {
          this.status = 'failed';
          this.error = error instanceof Error ? error.message : String(error);
          this.starting = null;
          this.startAbort = null;
          throw error;
        },
      );
    }
    return this.starting;
  }

  /** Re-reads a running server's tools after it announced a change; true when re-read. */
  async refreshTools(): Promise<boolean> {
    return this.connection?.alive === true ? this.connection.refreshToolsIfChanged() : false;
  }

  async close(): Promise<void> {
    this.startAbort?.abort();
    const connection = this.connection ?? (await this.starting?.catch(() => null)) ?? null;
    this.connection = null;
    await connection?.close();
  }

  /** One MCP tool call mapped to a tool output (§3). */
  async call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    traceContext?: TraceCarrier,
  ): Promise<ToolOutput> {
    const connection = this.connection;
    if (!connection?.alive) {
      return {
        type: 'error',
        message: `MCP server ${this.name} is not running`,
        code: MCP_SERVER_UNAVAILABLE,
      };
    }
    try {
      return callResultOutput(await connection.call(tool, args, signal, traceContext));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (signal.aborted) throw error;
      if (/timed out|timeout/i.test(message) && connection.alive) {
        return { type: 'error', message: `MCP tool ${tool} timed out`, code: MCP_TOOL_TIMEOUT };
      }
      return { type: 'error', message: `MCP server ${this.name}: ${message}`, code: MCP_SERVER_UNAVAILABLE };
    }
  }
}

/** Whether an MCP tool needs approval under the run's policy (§4); a server override wins over it. */
export function mcpNeedsApproval(tool: McpToolInfo, policy: ApprovalPolicy): boolean {
  if (policy === 'never') return false;
  if (policy === 'untrusted') return true;
  return !tool.readOnlyHint;
}

/** The ToolDefinitions of the started servers, in server order then each server's list order. */
export function mcpToolDefinitions(
  handles: readonly McpServerHandle[],
  policy: ApprovalPolicy,
): ToolDefinition[] {
  const taken = new Set<string>();
  return handles.flatMap((handle) => {
    const tools = handle.tools.filter((tool) => toolEnabled(handle.config, tool.name));
    const names = exposedToolNames(
      handle.name,
      tools.map((tool) => tool.name),
      taken,
    );
    return tools.map((tool, index): ToolDefinition => {
      const payload: McpToolPayload = { server: handle.name, tool: tool.name };
      return {
        name: names[index],
        description: tool.description,
        ...mcpParameters(tool.inputSchema),
        needsApproval: mcpNeedsApproval(tool, policy),
        ...(handle.config.approval === 'always' || handle.config.approval === 'never'
          ? { approvalOverride: handle.config.approval }
          : {}),
        metadata: { [MCP_TOOL_METADATA_KEY]: payload },
        handler: (ctx, args) => handle.call(tool.name, args, ctx.signal, ctx.traceContext),
      };
    });
  });
}

/** Starts every handle a turn needs; failures are reported, never thrown (§2). */
export async function startMcpServers(handles: readonly McpServerHandle[]): Promise<McpStartFailure[]> {
  const failures: McpStartFailure[] = [];
  await Promise.all(
    handles.map((handle) =>
      handle.ensureStarted().catch((error: unknown) => {
        const cause = error instanceof Error ? error.message : String(error);
        failures.push({
          server: handle.name,
          message: `MCP server ${handle.name} failed to start: ${cause}`,
        });
      }),
    ),
  );
  return failures;
}
