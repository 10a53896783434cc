/** `mcpServer/list` (docs/spec/mcp.md §5): never starts a server. */
import { Inject, Injectable } from '@nestjs/common';
import { RpcMethod } from './rpc-method';
import type { McpServerListParamsDto } from '../dto';
import { McpServerListing } from '../../../core/mcp/mcp-server-list.service';
import type { McpServerList } from '../../../core/model/types';

@Injectable()
export class McpServersHandlers {
  constructor(@Inject(McpServerListing) private readonly listing: McpServerListing) {}

  @RpcMethod('mcpServer/list')
  list(params: McpServerListParamsDto): Promise<McpServerList> {
    return this.listing.list(params.threadId);
  }
}
