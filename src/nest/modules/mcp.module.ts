import { Module } from '@nestjs/common';
import { PersistenceModule } from '../../persistence/sqlite/persistence.module';
import { McpServerListing } from '../../core/mcp/mcp-server-list.service';
import { McpServers } from '../../core/mcp/mcp-servers.service';
import { McpServersHandlers } from '../../protocols/app-server-v1/handlers/mcp-servers.handlers';

/** MCP servers (mcp.md): the per-thread server set the turns use, and `mcpServer/list`. */
@Module({
  imports: [PersistenceModule],
  providers: [McpServers, McpServerListing, McpServersHandlers],
  exports: [McpServers],
})
export class McpModule {}
