import { finishStep, handshake, paramsOf, sleep, textInput, type Scenario } from '../scenario';

/** docs/spec/protocol.md §8.8: catching up with `thread/resume` + `afterItemId` after missing live traffic. */
export const reconnectAfterItemId: Scenario = {
  name: 'reconnect-after-item-id',
  title: 'Lossless reconnect with thread/resume and afterItemId',
  description: [
    'The server runs with `--approval-policy never`, so `bash` runs without asking. The client watches',
    'the turn until the `bash` toolCall item is created (`item/started`) and remembers its `itemId` —',
    'the most recent item it saw created. It then stops listening (`thread/unsubscribe`; the thread is',
    'not closed because a turn is active) and misses the tool finishing. A few seconds later it',
    '"reconnects" with `thread/resume {afterItemId}`: the snapshot shows the turn still `running` and',
    "returns only the items whose latest change is later than that item's creation — here the `bash`",
    'item itself, now `completed` with its output — and nothing the client had already seen in its',
    "final state. Live notifications resume right after the response (the next cycle's",
    '`agentMessage`, `task_finish`, `idle`, `turn/completed`). Clients upsert items by `itemId`,',
    'keeping the larger `updatedAt`.',
  ].join('\n'),
  extraArgs: ['--approval-policy', 'never'],
  modelSteps: [
    {
      content: 'Running the slow check.',
      tool_calls: [{ id: 'call_slow', name: 'bash', arguments: { command: 'sleep 2; echo check passed' } }],
    },
    finishStep('The check passed.', 'call_finish', { delay_ms: 4000 }),
  ],
  async run(session) {
    await handshake(session);
    const { threadId } = await session.call<{ threadId: string }>('thread/start', { cwd: './workspace' });
    await session.waitForNotification('thread/started', { threadId });
    await session.call('turn/start', { threadId, input: textInput('Run the slow check') });
    const started = await session.waitFor(
      (m) => m.method === 'item/started' && paramsOf(m).type === 'toolCall',
    );
    const lastSeenItemId = paramsOf(started).itemId;
    await session.call(
      'thread/unsubscribe',
      { threadId },
      'stop listening (e.g. the view was closed); the turn keeps running',
    );
    await sleep(3500);
    await session.call(
      'thread/resume',
      { threadId, afterItemId: lastSeenItemId },
      'catch up: afterItemId = the most recent item this client saw created',
    );
    await session.waitForNotification('turn/completed', { threadId });
  },
};
