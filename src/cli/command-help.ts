/**
 * What `vv-agent <command> --help` prints after the general help (docs/spec/protocol.md §12.7 v1.1: a
 * command's help may print more), and the usage line that follows every usage error.
 */
import type { HelpTopic } from './cli-invocation';

/** Printed to stderr after a usage error's message. */
export const USAGE_LINE =
  'usage: vv-agent <app-server|acp|native-host|debug> [options] (vv-agent --help lists them)';

const SERVER_ENVIRONMENT = `Environment:
  VV_AGENT_HOME                    Home of the default store (default: ~/.vv-agent)
  api_key_env / \${NAME} variables   Endpoint keys named by the settings file
  VV_AGENT_SCRIPTED_MODEL_FILE     Test hook: a scripted model instead of the settings' endpoints
`;

const SERVER_EXIT_CODES = `Exit codes:
  0  stopped after EOF on stdin, SIGTERM or SIGINT (running turns are stored interrupted)
  1  the store could not be opened, the port could not be bound, or a fatal I/O error
  2  usage or configuration error (options, settings file, model, environment variable)
`;

const COMMAND_HELP: Record<HelpTopic, string> = {
  'app-server': `
app-server:
  Serves the App Server protocol (docs/protocol-guide.md) over stdio (JSONL), native messaging or
  WebSocket. stdout carries protocol only; every log line goes to stderr. Once ready it writes one
  stderr line: "vv-agent app-server ready on <transport> (model <backend>/<model>, store <store>)"
  (WebSocket: "vv-agent app-server listening on ws://HOST:PORT").

${SERVER_ENVIRONMENT}
${SERVER_EXIT_CODES}`,
  acp: `
acp:
  Serves the Agent Client Protocol on stdio for editors (docs/acp.md); same options and store as
  app-server, without --listen.

${SERVER_ENVIRONMENT}
${SERVER_EXIT_CODES}`,
  'native-host': `
native-host:
  install writes a launcher and a host manifest (paths printed); uninstall removes them; status
  lists what is installed (docs/native-messaging.md).

Exit codes:
  0  done
  2  usage error, a name or extension id the browser would reject, or a bad settings file
`,
};

export function commandHelp(command: HelpTopic): string {
  return COMMAND_HELP[command];
}
