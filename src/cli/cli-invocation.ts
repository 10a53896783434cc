/** What the command line asked for, after parsing (docs/spec/protocol.md §12). */
import type { ApprovalPolicy } from '../runtime/approvals/types';
import type { SandboxMode } from '../runtime/sandbox/sandbox-mode';
import type { WebSocketListenAddress } from '../transports/websocket/listen-address';
import type { NativeHostRequest } from './native-host/native-host-request';
import type { ObservabilityOptions } from './observability-options';

/** docs/spec/websocket.md §1: the `--listen ws://HOST:PORT` address and the `--ws-*` options. */
export interface WebSocketListenOptions {
  address: WebSocketListenAddress;
  /** `--ws-token-file`; null with `--ws-no-auth`. */
  tokenFile: string | null;
  noAuth: boolean;
  /** `--ws-allow-origin`, in command-line order. */
  allowedOrigins: string[];
  /** `--inspector` (docs/spec/inspector.md §1): serve the page at `/inspector/`; absent when not given. */
  inspector?: true;
}

/** docs/spec/sandbox.md §1, §2: `--sandbox`, `--sandbox-network`, `--sandbox-writable-root`, `--sandbox-deny-read`. */
export interface SandboxOptions {
  /** The most permissive mode any turn may use; default `workspace-write`. */
  mode: SandboxMode;
  network: boolean;
  /** As given, in command-line order (resolved at startup). */
  writableRoots: string[];
  denyRead: string[];
}

export interface ListenOptions {
  /** `native-messaging`: length-prefixed frames for a browser extension (docs/spec/native-messaging.md §1). */
  listen: 'stdio' | 'native-messaging' | 'ws';
  /** Present exactly when `listen` is `ws`. */
  websocket?: WebSocketListenOptions;
  settings: string;
  backend: string;
  model: string;
  timeoutSeconds: number;
  /** null → `$VV_AGENT_HOME/app-server.sqlite` */
  store: string | null;
  approvalPolicy: ApprovalPolicy;
  approvalTimeoutSeconds: number;
  maxMessageBytes: number;
  /** docs/spec/mcp.md §1: the `mcpServers` JSON file; null when not given. */
  mcpConfig: string | null;
  /** docs/spec/native-messaging.md §1: the caller the browser named, as the launcher forwards it. */
  nativeCaller?: string;
  /** The callers the installed launcher allows; absent → no check (a host started by hand). */
  nativeAllowedCallers?: readonly string[];
  /** docs/spec/observability.md §1, §4; absent = the defaults (no metrics listener, text logs at info). */
  observability?: ObservabilityOptions;
  sandbox: SandboxOptions;
}

/** Commands with a help section of their own (`vv-agent app-server --help`). */
export type HelpTopic = 'app-server' | 'acp' | 'native-host';

export type CliInvocation =
  /** `--help` / `-h` anywhere; `command`: the command it was given with, for its own section. */
  | { kind: 'help'; command?: HelpTopic }
  | { kind: 'version' }
  | { kind: 'usage-error'; message: string }
  | { kind: 'listen'; options: ListenOptions }
  /** docs/spec/acp.md §1: the listen options (always stdio), served as ACP. */
  | { kind: 'acp'; options: ListenOptions }
  | { kind: 'schema'; out: string }
  | { kind: 'generate-ts'; out: string }
  | { kind: 'debug-send-message'; message: string }
  /** docs/spec/inspector.md §1: `debug app-server inspect [--port N] [--open]`. */
  | { kind: 'debug-inspect'; port: number; open: boolean }
  /** docs/spec/native-messaging.md §2: install, uninstall or list the browser host files. */
  | { kind: 'native-host'; request: NativeHostRequest };

/** The long-running commands, which start without nest-commander (server-command.ts). */
export type ServerInvocation = Extract<CliInvocation, { kind: 'listen' } | { kind: 'acp' }>;

export function isServerInvocation(invocation: CliInvocation): invocation is ServerInvocation {
  return invocation.kind === 'listen' || invocation.kind === 'acp';
}

/** Nest injection token under which the parsed invocation reaches the commands. */
export const CLI_INVOCATION = Symbol('CLI_INVOCATION');
