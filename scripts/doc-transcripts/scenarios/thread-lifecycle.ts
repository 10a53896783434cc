import { handshake, textInput, type Scenario } from '../scenario';

/** docs/spec/protocol.md §3.3–§3.8, §7.4, §8.1: statuses, list, unsubscribe/closed, resume, archive; opt-out. */
export const threadLifecycle: Scenario = {
  name: 'thread-lifecycle',
  title: 'Thread lifecycle: ask_user, list, unsubscribe (closed), resume, archive; opt-out filtering',
  description: [
    'The client opts out of `item/agentMessage/delta` at `initialize`, so the streamed text arrives only',
    'in `item/started` / `item/completed`. The turn ends with `ask_user`: status `interrupted`,',
    '`completionReason: "wait_user"`, `finalOutput` = the question, `partialOutput` = the last agent',
    'text (the user answers with a new `turn/start`). Then: `thread/list`; `thread/unsubscribe` closes',
    'the idle thread (`closed: true`, then `thread/closed` and `thread/status/changed(closed)`), and',
    '`thread/list` reports it `closed`; `thread/resume` clears the closed flag and replays the thread;',
    '`thread/archive` answers, then sends `thread/archived` and `thread/status/changed(archived)`;',
    '`turn/start` on the archived thread fails with `-32021`; the default `thread/list` hides archived',
    'threads, `archived: true` selects them; `model/list` returns the one-model catalog of the CLI.',
  ].join('\n'),
  modelSteps: [
    {
      content: 'I found two build output folders.',
      tool_calls: [
        {
          id: 'call_ask',
          name: 'ask_user',
          arguments: {
            question: 'Which directory should I clean: build/ or dist/?',
            options: ['build/', 'dist/'],
          },
        },
      ],
    },
  ],
  async run(session) {
    await handshake(session, ['item/agentMessage/delta']);
    const { threadId } = await session.call<{ threadId: string }>('thread/start', {
      cwd: './workspace',
      metadata: { title: 'Clean up build output' },
    });
    await session.waitForNotification('thread/started', { threadId });
    await session.call('turn/start', { threadId, input: textInput('Clean up the build output') });
    await session.waitForNotification('turn/completed', { threadId });
    await session.call('thread/list', {});
    await session.call('thread/unsubscribe', { threadId }, 'no subscriber and no active turn remain: closed');
    await session.waitForNotification('thread/status/changed', { threadId, status: 'closed' });
    await session.call('thread/list', {});
    await session.call('thread/resume', { threadId }, 'subscribes again and clears the closed flag');
    await session.call('thread/archive', { threadId });
    await session.waitForNotification('thread/status/changed', { threadId, status: 'archived' });
    await session.request(
      'turn/start',
      { threadId, input: textInput('build/') },
      'archived threads take no turns',
    );
    await session.call('thread/list', {});
    await session.call('thread/list', { archived: true });
    await session.call('model/list');
  },
};
