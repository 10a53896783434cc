/** What the command line asked for, after parsing (protocol.md §12). */
import type { ApprovalPolicy } from '../runtime/approvals/types';

export interface ListenOptions {
  listen: 'stdio';
  settings: string;
  backend: string;
  model: string;
  timeoutSeconds: number;
  /** null → `$VV_AGENT_HOME/app-server.sqlite` */
  store: string | null;
  approvalPolicy: ApprovalPolicy;
  approvalTimeoutSeconds: number;
  maxMessageBytes: number;
  /** mcp.md §1: the `mcpServers` JSON file; null when not given. */
  mcpConfig: string | null;
}

export type CliInvocation =
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string }
  | { kind: 'listen'; options: ListenOptions }
  /** acp.md §1: the listen options (always stdio), served as ACP. */
  | { kind: 'acp'; options: ListenOptions }
  | { kind: 'schema'; out: string }
  | { kind: 'generate-ts'; out: string }
  | { kind: 'debug-send-message'; message: string };

/** Nest injection token under which the parsed invocation reaches the commands. */
export const CLI_INVOCATION = Symbol('CLI_INVOCATION');
