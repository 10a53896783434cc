/**
 * protocol-guide.md "The typed client" / embedding-guide.md "Testing": an in-process server with a
 * scripted model and an in-process AppServerClient — no child process, no network, a real store.
 */
// #region in-process
import {
  Agent,
  AppServerClient,
  Runner,
  ScriptedModelProvider,
  finish,
  startInProcessAppServer,
  type ServerMessage,
} from 'vv-agent-app-server';

export interface TurnTranscript {
  methods: string[];
  finalOutput: string | undefined;
  approvals: string[];
}

export async function runScriptedTurn(workspace: string, storePath = ':memory:'): Promise<TurnTranscript> {
  const modelProvider = new ScriptedModelProvider({
    steps: [
      {
        content: 'Counting files.',
        tool_calls: [{ id: 'call_ls', name: 'bash', arguments: { command: 'ls | wc -l' } }],
      },
      finish('Counted.'),
    ],
  });
  const server = await startInProcessAppServer({
    runner: new Runner({ modelProvider }),
    agent: Agent.create({ name: 'assistant', instructions: 'Use bash, then finish.', tools: ['bash'] }),
    store: { path: storePath },
  });
  const client = AppServerClient.inProcess(server, { requestTimeoutMs: 5_000 });
  const approvals: string[] = [];
  // Answer every approval/request; without a handler they would wait in the backlog.
  client.onApprovalRequest((request) => {
    approvals.push(request.preview);
    return { decision: 'allow' };
  });
  try {
    await client.initialize({ name: 'integration-test' });
    const { threadId } = await client.startThread({ cwd: workspace });
    await client.startTurn({ threadId, input: [{ type: 'text', text: 'How many files are there?' }] });
    const methods: string[] = [];
    let completed: ServerMessage;
    do {
      completed = await client.tryNextMessage({ timeoutMs: 5_000 });
      if (completed.method !== undefined) methods.push(completed.method);
    } while (completed.method !== 'turn/completed');
    return { methods, finalOutput: completed.params.finalOutput, approvals };
  } finally {
    await client.close(); // disconnects this connection only
    await server.close(); // shutdown sequence, then the Nest app closes
  }
}
// #endregion in-process
