/** The exact help text of protocol.md §12.7. */
export const HELP_TEXT = `Usage:
  vv-agent app-server --listen stdio --settings <path> --backend <key> --model <key> [options]
  vv-agent app-server --listen ws://HOST:PORT --ws-token-file <path> --settings <path> --backend <key> --model <key> [options]
  vv-agent app-server schema --out <dir>
  vv-agent app-server generate-ts --out <dir>
  vv-agent debug app-server send-message <message...>
  vv-agent acp --settings <path> --backend <key> --model <key> [options]

App Server options:
  --listen <transport>             stdio, native-messaging or ws://HOST:PORT (required)
  --settings <path>                LLM settings file, VERSION "2" JSON (required)
  --backend <key>                  Backend key in the settings file (required)
  --model <key>                    Model key of that backend (required)
  --timeout-seconds <seconds>      LLM request timeout (default: 90)
  --store <path|:memory:|url>      Thread store: sqlite path, or postgres://user:pw@host:port/db
                                   (default: $VV_AGENT_HOME/app-server.sqlite)
  --approval-policy <policy>       on-request | untrusted | never (default: on-request)
  --approval-timeout-seconds <s>   Approval wait before timeout (default: 30)
  --max-message-bytes <n>          Maximum inbound JSONL line in bytes (default: 16777216)
  --mcp-config <path>              MCP servers file in the common "mcpServers" JSON shape
  --ws-token-file <path>           WebSocket: file holding the client token (16-512 chars)
  --ws-no-auth                     WebSocket: no token (loopback HOST only)
  --ws-allow-origin <origin>       WebSocket: allowed Origin header value (repeatable)
  -h, --help                       Show this help

acp (Agent Client Protocol on stdio) takes the App Server options except --listen.
`;
