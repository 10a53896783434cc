import { Module } from '@nestjs/common';
import { PersistenceModule } from './persistence.module';
import { APP_SERVER_OPTIONS, type ResolvedAppServerOptions } from '../app-server-options';
import { McpServerListing } from '../../core/mcp/mcp-server-list.service';
import { MCP_PROCESS_SERVERS, McpServers } from '../../core/mcp/mcp-servers.service';
import { McpServersHandlers } from '../../protocols/app-server-v1/handlers/mcp-servers.handlers';

/** MCP servers (mcp.md): the per-thread server set the turns use, and `mcpServer/list`. */
@Module({
  imports: [PersistenceModule],
  providers: [
    {
      provide: MCP_PROCESS_SERVERS,
      inject: [APP_SERVER_OPTIONS],
      useFactory: (options: ResolvedAppServerOptions) => options.mcpServers,
    },
    McpServers,
    McpServerListing,
    McpServersHandlers,
  ],
  exports: [McpServers],
})
export class McpModule {}
