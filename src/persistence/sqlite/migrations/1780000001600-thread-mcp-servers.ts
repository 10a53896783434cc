/** docs/spec/mcp.md §1: thread-level MCP servers (`thread/start` `mcpServers`) are stored with the thread. */
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ThreadMcpServers1780000001600 implements MigrationInterface {
  name = 'ThreadMcpServers1780000001600';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "threads" ADD COLUMN "mcp_servers_json" text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "threads" DROP COLUMN "mcp_servers_json"`);
  }
}
