/** The exact `initialize` result of docs/spec/protocol.md §2; its type is the message definition's. */
import type { MessageTypes } from './messages';

export type InitializeResponse = MessageTypes['InitializeResponse'];

/** `threadLifecycle` is false iff the server was built without a runtime adapter. */
export function initializeResult(
  runtimeConfigured: boolean,
  sandbox: InitializeResponse['capabilities']['sandbox'],
): InitializeResponse {
  return {
    userAgent: 'vv-agent-app-server',
    protocolVersion: 'v1',
    capabilities: {
      modelList: true,
      threadLifecycle: runtimeConfigured,
      notificationOptOut: true,
      schemaExport: true,
      approvalResolve: true,
      ...(sandbox !== undefined ? { sandbox } : {}),
    },
  };
}
