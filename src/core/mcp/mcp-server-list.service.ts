/** docs/spec/mcp.md §5 (the MCP server list): the process-level servers, plus a thread's; -32020 for an unknown thread. */
import { Inject, Injectable } from '@nestjs/common';
import { THREAD_STORE, type ThreadStore } from '../store/thread-store';
import type { McpServerConfig } from '../../runtime/tools/mcp/server-config';
import { DomainErrors } from '../domain-error';
import type { McpServerList } from '../model/types';
import { McpServers } from './mcp-servers.service';

@Injectable()
export class McpServerListing {
  constructor(
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(McpServers) private readonly servers: McpServers,
  ) {}

  async list(threadId: string | undefined): Promise<McpServerList> {
    if (threadId === undefined) return { servers: this.servers.list(null, null) };
    const thread = await this.store.threads.get(threadId);
    if (thread === null) throw DomainErrors.threadNotFound();
    const threadServers = thread.mcpServers as Record<string, McpServerConfig> | null;
    return { servers: this.servers.list(threadId, threadServers) };
  }
}
