import { finishStep, handshake, paramsOf, textInput, type Scenario } from '../scenario';

/** docs/spec/protocol.md §3.10–§3.12: steer a running turn, queue a follow-up, interrupt during an approval. */
export const steerFollowUpInterrupt: Scenario = {
  name: 'steer-follow-up-interrupt',
  title: 'Steer, follow-up and interrupt of a running turn',
  description: [
    'While the first model call is still running (the scripted reply waits 1.5 s), the client sends',
    '`turn/steer` and `turn/followUp`; both answer `queued: true` at once. The batch of the first reply',
    'is skipped because steering is queued (`find_files` becomes a born-failed `toolCall` with',
    '`errorCode: "skipped_due_to_steering"`); the next cycle delivers the steering text as a',
    '`userMessage` with `steered: true`. The model then asks to run `bash`; while that approval is',
    'pending the client sends `turn/interrupt` with a reason: the response comes first, then',
    '`approval/resolved` (`timeout`, `turn interrupted`), the approval item completes, the tool is',
    'reported `tool_execution_cancelled`, and the turn ends `interrupted` / `cancelled` with',
    '`error` = the interrupt reason. Right after that `turn/completed` the queued follow-up starts as a',
    'new turn (`thread/status/changed(running)`, `turn/started`) owned by the same client.',
  ].join('\n'),
  modelSteps: [
    {
      content: "I'll list every file first.",
      delay_ms: 1500,
      tool_calls: [{ id: 'call_list', name: 'find_files', arguments: {} }],
    },
    {
      content: 'Checking the size of src/ as you asked.',
      tool_calls: [{ id: 'call_du', name: 'bash', arguments: { command: 'du -sh src' } }],
    },
    finishStep('The README describes a tiny demo project.', 'call_finish'),
  ],
  async run(session) {
    await handshake(session);
    const { threadId } = await session.call<{ threadId: string }>('thread/start', { cwd: './workspace' });
    await session.waitForNotification('thread/started', { threadId });
    const { turnId } = await session.call<{ turnId: string }>('turn/start', {
      threadId,
      input: textInput('List the files in the workspace'),
    });
    await session.waitForNotification('turn/started', { threadId, turnId });
    await session.call(
      'turn/steer',
      { threadId, expectedTurnId: turnId, input: textInput('Only look at src/ and tell me its size.') },
      'delivered to the model before its next call in this turn',
    );
    await session.call(
      'turn/followUp',
      { threadId, expectedTurnId: turnId, input: textInput('Then summarize the README.') },
      'starts as a new turn after this one ends, whatever its status',
    );
    await session.waitFor((m) => m.method === 'approval/request' && 'id' in m);
    await session.call(
      'turn/interrupt',
      { threadId, expectedTurnId: turnId, reason: 'user pressed stop' },
      'interrupt while the bash approval is pending (the client never answers it)',
    );
    await session.waitForNotification('turn/completed', { threadId, turnId });
    const followUp = await session.waitForNotification('turn/started', { threadId });
    await session.waitForNotification('turn/completed', { threadId, turnId: paramsOf(followUp).turnId });
  },
};
