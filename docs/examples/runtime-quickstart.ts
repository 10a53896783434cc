/**
 * runtime-guide.md "Quickstart": an agent, a runner, one run with a scripted model; live events,
 * the result, a full replay of the events, and the token usage in both shapes.
 */
// #region quickstart
import {
  Agent,
  Runner,
  ScriptedModelProvider,
  finish,
  toProtocolTokenUsage,
  type ProtocolTaskTokenUsage,
  type RunResult,
} from 'vv-agent-app-server';

export interface QuickstartOutcome {
  streamedText: string;
  eventTypes: string[];
  replayedEventCount: number;
  result: RunResult;
  usage: ProtocolTaskTokenUsage;
}

export async function quickstart(workspace: string): Promise<QuickstartOutcome> {
  // Two canned model replies: list the files, then finish with an answer.
  const modelProvider = new ScriptedModelProvider({
    steps: [
      {
        content: 'Let me look at the files. ',
        tool_calls: [{ id: 'call_1', name: 'find_files', arguments: {} }],
        usage: { prompt_tokens: 120, completion_tokens: 12, total_tokens: 132 },
      },
      finish('The workspace holds notes.md.'),
    ],
  });
  const agent = Agent.create({
    name: 'helper',
    instructions: 'You answer questions about the workspace. Finish with task_finish.',
    tools: ['find_files', 'read_file'],
    maxCycles: 5,
  });
  const runner = new Runner({ modelProvider, workspace });

  const handle = runner.start(agent, 'What is in the workspace?'); // returns at once
  let streamedText = '';
  const eventTypes: string[] = [];
  for await (const event of handle.events()) {
    eventTypes.push(event.type);
    if (event.type === 'assistant_delta') streamedText += event.delta;
  }
  const result = await handle.result();

  // Every events() call replays the whole journal from the first event.
  let replayedEventCount = 0;
  for await (const _event of handle.events()) replayedEventCount += 1;

  // result.tokenUsage is the runtime ledger (v2); the App Server sends its v1 projection.
  return {
    streamedText,
    eventTypes,
    replayedEventCount,
    result,
    usage: toProtocolTokenUsage(result.tokenUsage),
  };
}
// #endregion quickstart
