import { finishStep, handshake, textInput, type Scenario } from '../scenario';

/** docs/spec/history.md §2 and §3, recorded: a metadata patch, then a fork at the first of two turns. */
export const threadForkMetadata: Scenario = {
  name: 'thread-fork-metadata',
  title: 'Renaming a thread with thread/metadata/update and retrying from a turn with thread/fork',
  description: [
    'Two turns on a thread. `thread/metadata/update` patches the metadata shallowly (`null` deletes a',
    'key) and answers the updated thread; `thread/updated` follows to the requester and the',
    'subscribers. `thread/fork` with the first turn copies that turn and its items (fresh ids) into a',
    'new thread whose answer carries `forkedFrom`; `thread/started` follows. A turn on the fork starts',
    'from the history as it stood after the first turn (the model request is not on the wire), and',
    '`thread/read` of the fork shows the copied turn, its items and the new turn.',
  ].join('\n'),
  modelSteps: [
    finishStep('It is a tiny TypeScript demo project.', 'call_finish_1'),
    finishStep('add(a, b) returns a + b.', 'call_finish_2'),
    finishStep('It exports add and nothing else.', 'call_finish_3'),
  ],
  async run(session) {
    await handshake(session);
    const { threadId } = await session.call<{ threadId: string }>('thread/start', {
      cwd: './workspace',
      metadata: { title: 'Demo', draft: true },
    });
    await session.waitForNotification('thread/started', { threadId });
    const { turnId } = await session.call<{ turnId: string }>('turn/start', {
      threadId,
      input: textInput('What is this project?'),
    });
    await session.waitForNotification('turn/completed', { threadId });
    await session.call('turn/start', { threadId, input: textInput('What does add do?') });
    await session.waitForNotification('turn/completed', { threadId });
    await session.call(
      'thread/metadata/update',
      { threadId, metadata: { title: 'Demo project', draft: null } },
      'shallow patch: title replaced, draft deleted',
    );
    await session.waitForNotification('thread/updated', {});
    const fork = await session.call<{ threadId: string }>(
      'thread/fork',
      { threadId, turnId },
      'fork after the first turn: the second turn is not copied',
    );
    await session.waitForNotification('thread/started', { threadId: fork.threadId });
    await session.call('turn/start', {
      threadId: fork.threadId,
      input: textInput('What does src/math.ts export?'),
    });
    await session.waitForNotification('turn/completed', { threadId: fork.threadId });
    await session.call(
      'thread/read',
      { threadId: fork.threadId },
      'the fork: the copied turn and the new one',
    );
  },
};
