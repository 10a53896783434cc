import { finishStep, handshake, paramsOf, textInput, type Scenario } from '../scenario';

/** docs/spec/protocol.md §14.2, recorded: `bash` asks, the client answers `allow_session`; a later turn does not ask. */
export const approvalAllowSession: Scenario = {
  name: 'approval-allow-session',
  title: 'Approval round trip with bash (allow_session), then a turn that no longer asks',
  description: [
    'Turn 1: the model calls `bash`; with the default `on-request` policy the server opens an approval:',
    '`item/started` (approval) → `approval/requested` (broadcast) → `approval/request` (server request to',
    'the turn owner; its JSON-RPC `id` is the string `requestId`). The client answers that server request',
    'by its id with `{"decision":"allow_session"}`; the server broadcasts `approval/resolved` (exactly',
    'once, decision preserved), completes the approval item, and runs the tool. Turn 2 in the same',
    'thread calls `bash` again and runs it without any approval traffic: `allow_session` granted the',
    'tool name on this thread for the life of the server process. The scripted model reports no usage,',
    'so every token count is `null` (unknown), never `0`.',
  ].join('\n'),
  modelSteps: [
    {
      content: "I'll count the README lines.",
      tool_calls: [{ id: 'call_wc', name: 'bash', arguments: { command: 'wc -l README.md' } }],
    },
    finishStep('README.md has 3 lines.', 'call_finish_1'),
    {
      content: 'Listing src/ now.',
      tool_calls: [{ id: 'call_ls', name: 'bash', arguments: { command: 'ls src' } }],
    },
    finishStep('src/ holds index.ts and math.ts.', 'call_finish_2'),
  ],
  async run(session) {
    await handshake(session);
    const { threadId } = await session.call<{ threadId: string }>('thread/start', { cwd: './workspace' });
    await session.waitForNotification('thread/started', { threadId });
    await session.call('turn/start', { threadId, input: textInput('How many lines does the README have?') });
    const request = await session.waitFor((m) => m.method === 'approval/request' && 'id' in m);
    session.send(
      { jsonrpc: '2.0', id: request.id, result: { decision: 'allow_session' } },
      'answers the server request by its string id',
    );
    await session.waitForNotification('turn/completed', { threadId });
    if (paramsOf(request).toolName !== 'bash') throw new Error('expected a bash approval');
    await session.call(
      'turn/start',
      { threadId, input: textInput('Which files are in src/?') },
      'bash is granted for this thread: no approval traffic in this turn',
    );
    await session.waitForNotification('turn/completed', { threadId });
  },
};
