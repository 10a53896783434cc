/** A connected MCP server: SDK client + transport, its tool list and calls (docs/spec/mcp.md §2, §3). */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { loadMcpSdk, type McpSdk } from './mcp-sdk';
import type { McpCallResult } from './call-result';
import type { TraceCarrier } from '../../telemetry/telemetry';
import { mcpChildEnvironment } from './child-environment';
import {
  addCommandRoot,
  killCommandTree,
  recordCommandTree,
  trackCommand,
  type TrackedCommand,
} from '../builtins/process-tree';
import {
  DEFAULT_STARTUP_TIMEOUT_SEC,
  DEFAULT_TOOL_TIMEOUT_SEC,
  isHttpServer,
  type McpServerConfig,
} from './server-config';

export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  readOnlyHint: boolean;
}

const CLIENT_INFO = { name: 'vv-agent-app-server', version: '1.1.0' };

/**
 * A stdio server's process tree (docs/spec/mcp.md §2 "no MCP child or grandchild outlives the server"): the
 * SDK ends only its direct child, so closing kills the rest of its tree. No marker variable marks it:
 * the child's environment is exactly the one §2 lists. The tree is the child (known from its spawn)
 * and what it started, recorded before the child is asked to exit.
 */
function stdioTree(): TrackedCommand {
  return { pgid: undefined };
}

function transportFor(
  sdk: McpSdk,
  name: string,
  config: McpServerConfig,
  tree: TrackedCommand | null,
): Transport {
  if (isHttpServer(config)) {
    return new sdk.StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: config.headers ?? {} },
    });
  }
  /** The SDK's transport, telling the tree its child's pid as soon as the child is spawned. */
  class TrackedStdioTransport extends sdk.StdioClientTransport {
    override async start(): Promise<void> {
      await super.start();
      if (tree && this.pid !== null) addCommandRoot(tree, this.pid);
    }
  }
  const transport = new TrackedStdioTransport({
    command: config.command,
    args: config.args ?? [],
    env: mcpChildEnvironment(sdk.getDefaultEnvironment(), config.env),
    ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
    stderr: 'pipe',
  });
  // Server stderr goes to our stderr log with a prefix, never to stdout (the protocol stream).
  transport.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line !== '') process.stderr.write(`[mcp:${name}] ${line}\n`);
    }
  });
  return transport;
}

export class McpConnection {
  private closed = false;
  private toolsStale = false;
  private untrack: () => void = () => undefined;

  private constructor(
    readonly name: string,
    private readonly config: McpServerConfig,
    private readonly client: Client,
    public tools: McpToolInfo[],
    private readonly tree: TrackedCommand | null,
    private readonly sdk: McpSdk,
  ) {}

  /**
   * Spawn/connect, `initialize` and `tools/list` (all pages) within `startupTimeoutSec`; `signal`
   * (shutdown) ends it early, the same way as the timeout: the client closed, the child's tree ended.
   */
  static async start(name: string, config: McpServerConfig, signal?: AbortSignal): Promise<McpConnection> {
    const sdk = await loadMcpSdk();
    const client = new sdk.Client(CLIENT_INFO, { capabilities: {} });
    const timeoutMs = (config.startupTimeoutSec ?? DEFAULT_STARTUP_TIMEOUT_SEC) * 1000;
    const tree = isHttpServer(config) ? null : stdioTree();
    const untrack = tree ? trackCommand(tree) : () => undefined;
    const transport = transportFor(sdk, name, config, tree);
    let timer: NodeJS.Timeout | undefined;
    let onAbort = (): void => undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`startup timed out after ${timeoutMs / 1000}s`)), timeoutMs);
      onAbort = () => reject(new Error('startup cancelled: the server is shutting down'));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([client.connect(transport, { timeout: timeoutMs }), deadline]);
      const tools = await Promise.race([listAllTools(client), deadline]);
      const connection = new McpConnection(name, config, client, tools, tree, sdk);
      connection.untrack = untrack;
      connection.watch();
      return connection;
    } catch (error) {
      if (tree) await recordCommandTree(tree);
      await client.close().catch(() => undefined);
      if (tree) await killCommandTree(tree);
      untrack();
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  get alive(): boolean {
    return !this.closed;
  }

  private watch(): void {
    this.client.onclose = () => {
      this.closed = true;
    };
    this.client.setNotificationHandler(this.sdk.ToolListChangedNotificationSchema, () => {
      this.toolsStale = true;
    });
  }

  /**
   * Re-reads the list after `notifications/tools/list_changed` (before the next model call); true
   * when it was re-read. A failed re-read keeps the last list and stays stale for the next try.
   */
  async refreshToolsIfChanged(): Promise<boolean> {
    if (!this.toolsStale || this.closed) return false;
    this.toolsStale = false;
    try {
      this.tools = await listAllTools(this.client);
      return true;
    } catch {
      this.toolsStale = !this.closed;
      return false;
    }
  }

  /**
   * `tools/call` bounded by `toolTimeoutSec`; the SDK sends `notifications/cancelled` on abort. The
   * call's trace context travels in `params._meta` (docs/spec/observability.md §2, the MCP convention).
   */
  async call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    traceContext?: TraceCarrier,
  ): Promise<McpCallResult> {
    const timeout = (this.config.toolTimeoutSec ?? DEFAULT_TOOL_TIMEOUT_SEC) * 1000;
    const params =
      traceContext === undefined
        ? { name: tool, arguments: args }
        : { name: tool, arguments: args, _meta: { ...traceContext } };
    const result = await this.client.callTool(params, undefined, {
      signal,
      timeout,
      maxTotalTimeout: timeout,
    });
    return result as McpCallResult;
  }

  async close(): Promise<void> {
    this.closed = true;
    // Before the child exits: what it started is reparented then, and no longer found below it.
    if (this.tree) await recordCommandTree(this.tree);
    await this.client.close().catch(() => undefined);
    if (this.tree) await killCommandTree(this.tree);
    this.untrack();
  }
}

async function listAllTools(client: Client): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor !== undefined ? { cursor } : {});
    for (const tool of page.tools) {
      tools.push({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema as Record<string, unknown>,
        readOnlyHint: tool.annotations?.readOnlyHint === true,
      });
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}
