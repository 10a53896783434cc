/**
 * `content_chunks` (the inspector demo's streaming, docs/spec/inspector.md §1): each chunk is its
 * own content fragment, `chunk_delay_ms` apart; the response's content is their join; cancelling
 * between chunks stops the stream.
 */
import { ScriptedLlmClient, ScriptedModelProvider } from '../../../../src/runtime/model/scripted-model';
import type { LlmRequest, StreamCallbacks } from '../../../../src/runtime/model/types';

const resolved = new ScriptedModelProvider().resolve({ type: 'named', model: 'demo-model' });
const request: LlmRequest = { model: resolved, messages: [], tools: [], settings: {} };

function callbacks(fragments: Array<{ text: string; at: number }>): StreamCallbacks {
  return {
    onContent: (text) => fragments.push({ text, at: Date.now() }),
    onReasoning: () => undefined,
    onToolCallNamed: () => undefined,
    onToolCallArguments: () => undefined,
  };
}

describe('scripted content_chunks', () => {
  it('streams one fragment per chunk, spaced by chunk_delay_ms', async () => {
    const client = new ScriptedLlmClient([{ content_chunks: ['Hel', 'lo', '!'], chunk_delay_ms: 30 }]);
    const fragments: Array<{ text: string; at: number }> = [];
    const response = await client.complete(request, callbacks(fragments), new AbortController().signal);
    expect(fragments.map((fragment) => fragment.text)).toEqual(['Hel', 'lo', '!']);
    expect(response.content).toBe('Hello!');
    expect(fragments[2].at - fragments[0].at).toBeGreaterThanOrEqual(50);
  });

  it('stops at the next chunk when cancelled', async () => {
    const client = new ScriptedLlmClient([{ content_chunks: ['a', 'b'], chunk_delay_ms: 1_000 }]);
    const controller = new AbortController();
    const fragments: Array<{ text: string; at: number }> = [];
    const pending = client.complete(request, callbacks(fragments), controller.signal);
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toThrow('llm request cancelled');
    expect(fragments.map((fragment) => fragment.text)).toEqual(['a']);
  });
});
