/** The help text of docs/spec/protocol.md §12.7, grown with v1.1's WebSocket, native messaging and ACP. */
export const HELP_TEXT = `Usage:
  vv-agent app-server --listen stdio --settings <path> --backend <key> --model <key> [options]
  vv-agent app-server --listen native-messaging --settings <path> --backend <key> --model <key> [options]
  vv-agent app-server --listen ws://HOST:PORT --ws-token-file <path> --settings <path> --backend <key> --model <key> [options]
  vv-agent app-server schema --out <dir>
  vv-agent app-server generate-ts --out <dir>
  vv-agent debug app-server send-message <message...>
  vv-agent debug app-server inspect [--port <n>] [--open]
  vv-agent native-host install --browser <browser> --extension-id <id> --settings <path> --backend <key> --model <key> [options]
  vv-agent native-host uninstall --browser <browser> [--name <name>] [--user-data-dir <dir>]
  vv-agent native-host status [--browser <browser>] [--user-data-dir <dir>]
  vv-agent acp --settings <path> --backend <key> --model <key> [options]

App Server options:
  --listen <transport>             stdio (JSONL), native-messaging (browser frames) or ws://HOST:PORT (required)
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
  --native-caller <origin|id>      native-messaging: the caller the browser named (set by the launcher)
  --native-allowed-callers <list>  native-messaging: comma-separated callers served (set by the launcher)
  --ws-token-file <path>           WebSocket: file holding the client token (16-512 chars)
  --ws-no-auth                     WebSocket: no token (loopback HOST only)
  --ws-allow-origin <origin>       WebSocket: allowed Origin header value (repeatable)
  --inspector                      WebSocket: serve the inspector page at /inspector/
  --metrics-listen <host:port>     Prometheus text on GET /metrics, GET /healthz (loopback HOST only
                                   unless --metrics-allow-remote); traces/metrics over OTLP: OTEL_* variables
  --metrics-allow-remote           Allow a non-loopback --metrics-listen HOST
  --log-format <text|json>         stderr lines: text (default) or one JSON object per line
  --log-level <level>              debug | info | warn | error (default: warn, or $VV_AGENT_LOG_LEVEL)
  --sandbox <mode>                 bash's OS sandbox at most: read-only | workspace-write |
                                   danger-full-access (default: workspace-write)
  --sandbox-network                workspace-write: bash commands keep the network
  --sandbox-writable-root <dir>    Another directory bash may write (repeatable)
  --sandbox-deny-read <path>       Another path bash may not read (repeatable)
  -h, --help                       Show this help
  -V, --version                    Print the version

native-host options (install writes a launcher and a host manifest for the current user):
  --browser <browser>              chrome | chromium | edge | firefox
  --extension-id <id>              The extension allowed to connect (Chromium browsers: 32 letters a-p)
  --name <name>                    Host name: a-z, 0-9, "_" and "." (default: com.vv_agent.app_server)
  --user-data-dir <dir>            Chrome/Chromium/Edge profile folder, when not the default one
  --settings, --backend, --model, --store, --approval-policy, --sandbox
                                   The App Server options the launcher starts the host with

acp (Agent Client Protocol on stdio) takes the App Server options except --listen.
`;
