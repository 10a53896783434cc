/**
 * `allow_session` grants (docs/spec/protocol.md §9.6): a tool name on a thread, for the life of this
 * process. In memory only; grants never cross threads and are lost on restart.
 */
export class SessionGrants {
  private readonly toolsByThread = new Map<string, Set<string>>();

  grant(threadId: string, toolName: string): void {
    let tools = this.toolsByThread.get(threadId);
    if (tools === undefined) {
      tools = new Set();
      this.toolsByThread.set(threadId, tools);
    }
    tools.add(toolName);
  }

  isGranted(threadId: string, toolName: string): boolean {
    return this.toolsByThread.get(threadId)?.has(toolName) ?? false;
  }
}
