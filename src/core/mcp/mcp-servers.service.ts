/**
 * The App Server's MCP servers (docs/spec/mcp.md §1, §2, §5): which servers a turn uses (process config <
 * host agent < thread, a later source wins per name), one shared handle per resolved process/host
 * config, one handle per thread-level server, the MCP server list view, and closing everything at
 * shutdown (a start still in progress included). Starting, calling and restarting are the runtime
 * tool source's (runtime/tools/mcp).
 */
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Agent } from '../../runtime/agent';
import type { ApprovalPolicy } from '../../runtime/approvals/types';
import { exposedToolNames } from '../../runtime/tools/mcp/exposed-name';
import { McpServerHandle } from '../../runtime/tools/mcp/mcp-tool-source';
import { McpToolSet } from '../../runtime/tools/mcp/mcp-tool-set';
import { isHttpServer, toolEnabled, type McpServerConfig } from '../../runtime/tools/mcp/server-config';
import type { McpServerInfo } from '../model/types';

export type McpServerSource = McpServerInfo['source'];

/** Injection token of the process-level servers (`--mcp-config`, AppServerModule `mcpServers`). */
export const MCP_PROCESS_SERVERS = Symbol('MCP_PROCESS_SERVERS');

interface McpServerEntry {
  name: string;
  source: McpServerSource;
  handle: McpServerHandle;
}

@Injectable()
export class McpServers implements OnApplicationShutdown {
  /** Process and host servers, keyed by name + resolved config: one child each, shared by threads. */
  private readonly shared = new Map<string, McpServerHandle>();
  /** Thread-level servers: threadId → name → handle. */
  private readonly threadOwned = new Map<string, Map<string, McpServerHandle>>();
  /** The servers of each thread's last turn (host servers are known only once its agent resolved). */
  private readonly lastUsed = new Map<string, McpServerEntry[]>();

  constructor(
    @Inject(MCP_PROCESS_SERVERS) private readonly processServers: Readonly<Record<string, McpServerConfig>>,
  ) {}

  /**
   * The turn's MCP tools: a tool source over the servers the turn uses, which the run starts before
   * its first model call (§2). Its `payloads` give `payload.mcp` of the turn's toolCall items (§5).
   */
  toolsForTurn(
    threadId: string,
    agent: Agent,
    threadServers: Record<string, McpServerConfig> | null,
    policy: ApprovalPolicy,
  ): McpToolSet {
    const entries = this.entriesFor(threadId, agent.mcpServers, threadServers);
    this.lastUsed.set(threadId, entries);
    return new McpToolSet(
      entries.map((entry) => entry.handle),
      policy,
    );
  }

  /** §5 (the MCP server list): never starts a server. */
  list(threadId: string | null, threadServers: Record<string, McpServerConfig> | null): McpServerInfo[] {
    const entries =
      threadId === null
        ? this.entriesFor(null, {}, null)
        : (this.lastUsed.get(threadId) ?? this.entriesFor(threadId, {}, threadServers));
    const taken = new Set<string>();
    return entries.map(({ name, source, handle }) => {
      const tools = handle.tools.filter((tool) => toolEnabled(handle.config, tool.name));
      const exposed = exposedToolNames(
        name,
        tools.map((tool) => tool.name),
        taken,
      );
      return {
        name,
        source,
        status: handle.status,
        transport: isHttpServer(handle.config) ? 'http' : 'stdio',
        tools: tools.map((tool, index) => ({
          name: tool.name,
          exposedName: exposed[index],
          description: tool.description,
        })),
        ...(handle.error !== undefined && handle.status === 'failed' ? { error: handle.error } : {}),
      };
    });
  }

  /** §2: shutdown closes every MCP client and ends every stdio server's process tree. */
  async onApplicationShutdown(): Promise<void> {
    const handles = [
      ...this.shared.values(),
      ...[...this.threadOwned.values()].flatMap((map) => [...map.values()]),
    ];
    this.shared.clear();
    this.threadOwned.clear();
    await Promise.all(handles.map((handle) => handle.close()));
  }

  private entriesFor(
    threadId: string | null,
    hostServers: Readonly<Record<string, McpServerConfig>>,
    threadServers: Record<string, McpServerConfig> | null,
  ): McpServerEntry[] {
    const merged = new Map<string, McpServerEntry>();
    for (const [name, config] of Object.entries(this.processServers))
      merged.set(name, { name, source: 'config', handle: this.sharedHandle(name, config) });
    for (const [name, config] of Object.entries(hostServers))
      merged.set(name, { name, source: 'host', handle: this.sharedHandle(name, config) });
    if (threadId !== null) {
      for (const [name, config] of Object.entries(threadServers ?? {}))
        merged.set(name, { name, source: 'thread', handle: this.threadHandle(threadId, name, config) });
    }
    return [...merged.values()];
  }

  private sharedHandle(name: string, config: McpServerConfig): McpServerHandle {
    const key = JSON.stringify([name, config]);
    let handle = this.shared.get(key);
    if (handle === undefined) {
      handle = new McpServerHandle(name, config);
      this.shared.set(key, handle);
    }
    return handle;
  }

  private threadHandle(threadId: string, name: string, config: McpServerConfig): McpServerHandle {
    const owned = this.threadOwned.get(threadId) ?? new Map<string, McpServerHandle>();
    this.threadOwned.set(threadId, owned);
    let handle = owned.get(name);
    if (handle === undefined) {
      handle = new McpServerHandle(name, config);
      owned.set(name, handle);
    }
    return handle;
  }
}
