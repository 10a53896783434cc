/**
 * protocol-guide.md "The typed client": drive the stdio server as a child process. `cliPath` is the
 * package's `dist/main.js` (the `vv-agent` bin).
 */
// #region spawn
import { AppServerClient, AppServerClientError } from 'vv-agent-app-server';

export async function askOnce(
  cliPath: string,
  settingsPath: string,
  workspace: string,
  prompt: string,
): Promise<string> {
  const listen = ['app-server', '--listen', 'stdio', '--settings', settingsPath];
  const model = ['--backend', 'moonshot', '--model', 'kimi-k3'];
  const client = AppServerClient.spawn({
    command: process.execPath,
    args: [cliPath, ...listen, ...model],
    onStderr: (line) => console.error(`[app-server] ${line}`),
  });
  // Approve `npm test` for the rest of this thread; refuse everything else.
  client.onApprovalRequest((request) =>
    request.toolName === 'bash' && request.arguments.command === 'npm test'
      ? { decision: 'allow_session' }
      : { decision: 'deny', reason: 'Only `npm test` may run.' },
  );
  try {
    await client.initialize({ name: 'my-editor', version: '1.0.0' }); // also sends `initialized`
    const { threadId } = await client.startThread({ cwd: workspace });
    const { turnId } = await client.startTurn({ threadId, input: [{ type: 'text', text: prompt }] });
    let lastMessageId: string | null = null;
    for (;;) {
      // Waits for the next notification; long tool calls can be silent for a while.
      const message = await client.tryNextMessage({ timeoutMs: 10 * 60_000 });
      // A delta carries only its chunk; the client keeps each message's text so far.
      if (message.method === 'item/agentMessage/delta') lastMessageId = message.params.itemId;
      if (message.method === 'turn/completed' && message.params.turnId === turnId) {
        if (message.params.status === 'failed') throw new Error(message.params.error);
        const streamed = lastMessageId === null ? '' : (client.agentMessages.text(lastMessageId) ?? '');
        return message.params.finalOutput ?? streamed;
      }
    }
  } catch (error) {
    // Server errors keep their JSON-RPC code (e.g. -32603 with the host's message).
    if (error instanceof AppServerClientError && error.code === -32001)
      throw new Error('server busy, retry later');
    throw error;
  } finally {
    await client.close(); // ends stdin: the server shuts down and exits 0
  }
}
// #endregion spawn
