/** Fixtures for compaction runs: a scripted model with a small context length, a sized tool. */
import type { LlmRequest, ModelProvider } from '../../../../src/runtime/model/types';
import { ScriptedModelProvider, type ScriptStep } from '../../../../src/runtime/model/scripted-model';
import type { ToolDefinition } from '../../../../src/runtime/tools/types';

export interface SmallContextModel {
  provider: ModelProvider;
  scripted: ScriptedModelProvider;
  /** Every request the model received, in order. */
  requests: LlmRequest[];
}

/** The scripted model (docs/spec/runtime.md §15) resolving to `contextLength` / `maxOutputTokens`. */
export function smallContextModel(
  steps: ScriptStep[],
  contextLength: number,
  maxOutputTokens: number | null = null,
): SmallContextModel {
  const requests: LlmRequest[] = [];
  const recorded = steps.map((step): ScriptStep => (request) => {
    requests.push(structuredClone(request));
    return typeof step === 'function' ? step(request) : step;
  });
  const scripted = new ScriptedModelProvider({ steps: recorded });
  const provider: ModelProvider = {
    resolve: (ref) => ({
      ...scripted.resolve(ref),
      context_length: contextLength,
      max_output_tokens: maxOutputTokens,
    }),
    client: (resolved) => scripted.client(resolved),
    defaultModelRef: () => scripted.defaultModelRef(),
  };
  return { provider, scripted, requests };
}

/** `fetch {size}` returns `size` characters: lets a test size the conversation exactly. */
export const sizedTool: ToolDefinition = {
  name: 'fetch',
  description: 'Returns size characters.',
  parameters: { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'] },
  handler: async (_ctx, args) => ({ type: 'text', text: 'r'.repeat(Number(args.size)) }),
};

export function usage(promptTokens: number): Record<string, unknown> {
  return { prompt_tokens: promptTokens, completion_tokens: 10, total_tokens: promptTokens + 10 };
}

export function fetchCall(
  id: string,
  size: number,
): { id: string; name: string; arguments: Record<string, unknown> } {
  return { id, name: 'fetch', arguments: { size } };
}
