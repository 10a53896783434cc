/**
 * The MCP SDK, loaded on first use: its modules (and zod's) take ~240 ms to load, which a server
 * that never starts an MCP server must not pay at cold start.
 */
type ClientModule = typeof import('@modelcontextprotocol/sdk/client/index.js');
type StdioModule = typeof import('@modelcontextprotocol/sdk/client/stdio.js');
type HttpModule = typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
type TypesModule = typeof import('@modelcontextprotocol/sdk/types.js');

export interface McpSdk {
  Client: ClientModule['Client'];
  StdioClientTransport: StdioModule['StdioClientTransport'];
  getDefaultEnvironment: StdioModule['getDefaultEnvironment'];
  StreamableHTTPClientTransport: HttpModule['StreamableHTTPClientTransport'];
  ToolListChangedNotificationSchema: TypesModule['ToolListChangedNotificationSchema'];
}

let loading: Promise<McpSdk> | undefined;

export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([client, stdio, http, types]) => ({
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
  }));
  return loading;
}
