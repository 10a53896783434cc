/** runtime-guide.md "Steering and cancellation": steer a run, then cancel another one. */
import { Agent, Runner, ScriptedModelProvider, finish, type RunEvent } from 'vv-agent-app-server';

// #region steer-cancel
export async function steerThenCancel(
  workspace: string,
): Promise<{ steered: RunEvent[]; cancelled: string }> {
  const modelProvider = new ScriptedModelProvider({
    steps: [finish('Terminé.'), { content: 'This reply never arrives.', delay_ms: 10_000 }],
  });
  const agent = Agent.create({ name: 'writer', instructions: 'Write short answers.', maxCycles: 4 });
  const runner = new Runner({ modelProvider, workspace });

  // Steering is queued at once and delivered as a user message before the run's next model call
  // (event `steer_applied`); while it is queued, tool calls not yet started are skipped.
  const first = runner.start(agent, 'Say you are done.');
  first.steer('Answer in French.');
  const steered = (await first.result()).events.filter((event) => event.type === 'steer_applied');

  // Cancellation aborts the in-flight model call; the run ends with completionReason "cancelled".
  const second = runner.start(agent, 'Take your time.');
  setTimeout(() => second.cancel('user pressed stop'), 100);
  const result = await second.result();
  return { steered, cancelled: `${result.status}/${result.completionReason}: ${result.error}` };
}
// #endregion steer-cancel
