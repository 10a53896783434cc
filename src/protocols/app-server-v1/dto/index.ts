export * from './param-rules';
export * from './initialize.params';
export * from './thread.params';
export * from './turn.params';
export * from './approval-resolve.params';
export * from './model-list.params';
export * from './mcp-servers.params';
