import { finishStep, handshake, textInput, type Scenario } from '../scenario';

const SUMMARY = [
  'Goal: explain the demo project; the user wants short answers.',
  'Done: README.md and src/math.ts were read; add(a, b) returns a + b.',
  'Next steps: answer follow-up questions about src/.',
].join('\n');

/** docs/spec/history.md §1, recorded: two turns, then `thread/compact`, then a turn on the compacted history. */
export const threadCompact: Scenario = {
  name: 'thread-compact',
  title: 'Compacting a thread on demand with thread/compact',
  description: [
    'Two short turns, then `thread/compact`: the answer names the compaction turn, which announces',
    'itself like any turn (`thread/status/changed(running)`, `turn/started`), carries one',
    '`contextCompaction` item (`inProgress` with its `trigger`, then `completed` with the `summary`',
    'and the message and token figures before and after) and ends with `turn/completed` without',
    '`finalOutput`; there is no `userMessage` or `agentMessage`. The summary call is one more model call',
    "in the turn's `tokenUsage`. The next turn's model context (not on the wire) starts from the summary message instead",
    'of the first exchange. The final `thread/read` replays the compaction item like every item.',
  ].join('\n'),
  modelSteps: [
    finishStep('It is a tiny TypeScript demo project.', 'call_finish_1'),
    finishStep('add(a, b) returns a + b.', 'call_finish_2'),
    { content: SUMMARY, usage: { prompt_tokens: 310, completion_tokens: 48, total_tokens: 358 } },
    finishStep('Only src/index.ts and src/math.ts.', 'call_finish_3'),
  ],
  async run(session) {
    await handshake(session);
    const { threadId } = await session.call<{ threadId: string }>('thread/start', { cwd: './workspace' });
    await session.waitForNotification('thread/started', { threadId });
    await session.call('turn/start', { threadId, input: textInput('What is this project?') });
    await session.waitForNotification('turn/completed', { threadId });
    await session.call('turn/start', { threadId, input: textInput('What does add do?') });
    await session.waitForNotification('turn/completed', { threadId });
    await session.call('thread/compact', { threadId }, 'a compaction turn: input [], owned by the requester');
    await session.waitForNotification('turn/completed', { threadId });
    await session.call('turn/start', { threadId, input: textInput('Which files are in src/?') });
    await session.waitForNotification('turn/completed', { threadId });
    await session.call('thread/read', { threadId }, 'replay: the contextCompaction item like every item');
  },
};
