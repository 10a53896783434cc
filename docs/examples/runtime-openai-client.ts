/**
 * runtime-guide.md "Real models": settings file → exact model → OpenAI-compatible streaming client →
 * provider → runner. Only `resolveFromSettings` runs in the docs test (no network there).
 */
import {
  Agent,
  FixedModelProvider,
  Runner,
  createOpenAiCompatibleClient,
  loadLlmSettings,
  resolveModelEndpoint,
  type ResolvedModelConfig,
  type RunResult,
} from 'vv-agent-app-server';

// #region resolve
/** Throws the loader's exact messages, e.g. `invalid LLM settings: model not found: backend=… model=…`. */
export function resolveFromSettings(
  settingsPath: string,
  backend: string,
  model: string,
): ResolvedModelConfig {
  const settings = loadLlmSettings(settingsPath); // VERSION "2" JSON file
  return resolveModelEndpoint(settings, backend, model); // exact: no aliases, no prefix matching
}
// #endregion resolve

// #region client
export async function askRealModel(settingsPath: string, question: string): Promise<RunResult> {
  const settings = loadLlmSettings(settingsPath);
  const resolved = resolveModelEndpoint(settings, 'moonshot', 'kimi-k3');
  const client = createOpenAiCompatibleClient(settings, resolved, { timeoutSeconds: 90 });
  const runner = new Runner({ modelProvider: new FixedModelProvider(resolved, client), workspace: '.' });
  const agent = Agent.create({
    name: 'assistant',
    instructions: 'Answer briefly, then call task_finish.',
    model: { type: 'resolved', config: resolved },
    modelSettings: { temperature: 0.2, retry: { max_attempts: 2, backoff_seconds: 1 } },
  });
  return runner.run(agent, question);
}
// #endregion client
