import { finishStep, handshake, textInput, type Scenario } from '../scenario';

const SUMMARY = 'The workspace has a README and a src/ folder with 2 TypeScript files.';

/** docs/spec/protocol.md §14.1, recorded: a streamed turn that finishes with `task_finish`, then `thread/read`. */
export const turnFinishAndReplay: Scenario = {
  name: 'turn-finish-and-replay',
  title: 'A turn that finishes with task_finish, then replay with thread/read',
  description: [
    'Handshake, a thread with a relative `cwd`, and one turn of two cycles: the model lists the files',
    '(`find_files` is a read tool, so no approval is asked), then calls `task_finish`. Look for the',
    'item lifecycles (`userMessage` born complete; `agentMessage` started → delta → completed; `toolCall`',
    'started → `item/toolCall/delta` with the arguments → completed with `output`), the order',
    '`thread/status/changed(idle)` → `turn/completed`, and `tokenUsage`: cycle 1 reports an observed',
    'cache zero (`read_input_tokens: 0`, `provider_reported`), cycle 2 reports no cache figures',
    '(`accounting_missing`, `null`), so the aggregate cache status is `accounting_missing` with `null`',
    'counts. The final `thread/read` replays every item once, each equal to its last notification',
    'without `delta`. No final `agentMessage` is added because `finalOutput` equals the last agent text.',
  ].join('\n'),
  modelSteps: [
    {
      content: 'Let me list the files first.',
      tool_calls: [{ id: 'call_list', name: 'find_files', arguments: { sort: 'path_asc' } }],
      usage: {
        prompt_tokens: 905,
        completion_tokens: 41,
        total_tokens: 946,
        prompt_tokens_details: { cached_tokens: 0 },
      },
    },
    finishStep(SUMMARY, 'call_finish', {
      usage: { prompt_tokens: 1010, completion_tokens: 29, total_tokens: 1039 },
    }),
  ],
  async run(session) {
    await handshake(session);
    const { threadId } = await session.call<{ threadId: string }>('thread/start', { cwd: './workspace' });
    await session.waitForNotification('thread/started', { threadId });
    await session.call('turn/start', { threadId, input: textInput('Summarize the workspace') });
    await session.waitForNotification('turn/completed', { threadId });
    await session.call('thread/read', { threadId }, 'replay: every item once, in its latest state');
  },
};
