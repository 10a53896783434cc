/** What `vv-agent native-host …` asked for, after parsing (docs/spec/native-messaging.md §2). */
import type { SandboxMode } from '../../runtime/sandbox/sandbox-mode';
import type { ApprovalPolicy } from '../../runtime/approvals/types';
import type { Browser } from './native-host-locations';

export interface NativeHostInstall {
  action: 'install';
  browser: Browser;
  extensionId: string;
  name: string;
  /** A Chromium-based browser's own `--user-data-dir`; null → the browser's default profile folder. */
  userDataDir: string | null;
  settings: string;
  backend: string;
  model: string;
  /** null → the server's default store (`$VV_AGENT_HOME/app-server.sqlite`). */
  store: string | null;
  /** null → the server's default (`on-request`). */
  approvalPolicy: ApprovalPolicy | null;
  /** docs/spec/sandbox.md §1: passed on as `--sandbox`; null → the server's default (`workspace-write`). */
  sandbox: SandboxMode | null;
}

export interface NativeHostUninstall {
  action: 'uninstall';
  browser: Browser;
  name: string;
  userDataDir: string | null;
}

export interface NativeHostStatus {
  action: 'status';
  /** null → every browser. */
  browser: Browser | null;
  userDataDir: string | null;
}

export type NativeHostRequest = NativeHostInstall | NativeHostUninstall | NativeHostStatus;
