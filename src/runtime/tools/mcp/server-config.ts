/** One MCP server's configuration in the common `mcpServers` shape (docs/spec/mcp.md §1). */
export type McpApproval = 'default' | 'always' | 'never';

interface McpServerCommon {
  startupTimeoutSec?: number;
  toolTimeoutSec?: number;
  enabledTools?: string[];
  disabledTools?: string[];
  approval?: McpApproval;
}

export interface McpStdioServerConfig extends McpServerCommon {
  type?: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export interface McpHttpServerConfig extends McpServerCommon {
  type: 'http';
  url: string;
  headers?: Record<string, string>;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

export const DEFAULT_STARTUP_TIMEOUT_SEC = 30;
export const DEFAULT_TOOL_TIMEOUT_SEC = 120;

export function isHttpServer(config: McpServerConfig): config is McpHttpServerConfig {
  return config.type === 'http';
}

/** Whether `enabledTools` / `disabledTools` let the model see this MCP tool. */
export function toolEnabled(config: McpServerConfig, tool: string): boolean {
  if (config.disabledTools?.includes(tool)) return false;
  return config.enabledTools === undefined || config.enabledTools.includes(tool);
}
