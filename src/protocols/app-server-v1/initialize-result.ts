/** The exact `initialize` result of protocol.md §2. */

export interface InitializeCapabilities {
  modelList: true;
  threadLifecycle: boolean;
  notificationOptOut: true;
  schemaExport: true;
  approvalResolve: true;
}

export interface InitializeResponse {
  userAgent: 'vv-agent-app-server';
  protocolVersion: 'v1';
  capabilities: InitializeCapabilities;
}

/** `threadLifecycle` is false iff the server was built without a runtime adapter. */
export function initializeResult(runtimeConfigured: boolean): InitializeResponse {
  return {
    userAgent: 'vv-agent-app-server',
    protocolVersion: 'v1',
    capabilities: {
      modelList: true,
      threadLifecycle: runtimeConfigured,
      notificationOptOut: true,
      schemaExport: true,
      approvalResolve: true,
    },
  };
}
