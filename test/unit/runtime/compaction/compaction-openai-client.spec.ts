/**
 * Compaction over the real OpenAI-compatible streaming client and the fake model server on
 * 127.0.0.1: the summary request's wire body (no `tools`, the message layout of docs/spec/history.md §1) and
 * the next request after an automatic compaction.
 */
import { COMPACTION_INSTRUCTIONS, SUMMARY_PREFIX } from '../../../../src/runtime/compaction/summary-request';
import { FixedModelProvider } from '../../../../src/runtime/llm/fixed-model-provider';
import { resolveModelEndpoint } from '../../../../src/runtime/llm/model-resolution';
import { OpenAiCompatibleClient } from '../../../../src/runtime/llm/openai-compatible-client';
import { parseLlmSettingsDocument } from '../../../../src/runtime/llm/settings-document';
import type { Message } from '../../../../src/runtime/messages';
import type { ResolvedModelConfig } from '../../../../src/runtime/model/types';
import { Runner } from '../../../../src/runtime/runner';
import { FakeOpenAiServer, fakeSettingsDocument, textReply } from '../../../helpers/fake-openai-server';
import { finishReply } from '../../../helpers/model-replies';
import { eventsOf, makeAgent, tempDir } from '../runtime-test-kit';
import { sizedTool } from './compaction-test-support';

const SYSTEM = { role: 'system', content: 'Do the task, then finish.' };

describe('compaction over the OpenAI-compatible client', () => {
  let server: FakeOpenAiServer;
  let workspace: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    server = await FakeOpenAiServer.start();
    workspace = await tempDir();
  });
  afterEach(async () => {
    await server.close();
    await workspace.cleanup();
  });

  function runner(contextLength: number, maxOutputTokens: number | null): Runner {
    const settings = parseLlmSettingsDocument(
      fakeSettingsDocument({
        endpoints: [{ id: 'primary', apiBase: server.baseUrl }],
        backend: 'openai',
        model: 'test-model',
        contextLength,
      }),
    );
    const resolved: ResolvedModelConfig = {
      ...resolveModelEndpoint(settings, 'openai', 'test-model'),
      max_output_tokens: maxOutputTokens,
    };
    const provider = new FixedModelProvider(resolved, new OpenAiCompatibleClient({ timeoutSeconds: 30 }));
    return new Runner({ modelProvider: provider, workspace: workspace.path });
  }

  it('manual: a streamed request without tools — system, the compacted history, the instructions', async () => {
    server.enqueue(
      textReply(['Goal: ship it. ', 'Next steps: test.'], {
        usage: { prompt_tokens: 40, completion_tokens: 9 },
      }),
    );
    const history: Message[] = [
      { role: 'user', content: 'first' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'fetch', arguments: '{"size":1}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'r' },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: 'ok' },
    ];
    const agent = makeAgent({
      tools: [sizedTool],
      modelSettings: { tool_choice: 'required', parallel_tool_calls: true, max_tokens: 500 },
    });
    const result = await runner(128000, null).compact(agent, { initialMessages: history }).result();

    expect(result.status).toBe('completed');
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0].body ?? {};
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
    expect(body).toMatchObject({ model: 'test-model', stream: true, max_tokens: 500 });
    // On the wire exactly as stored (no reasoning chain for this backend).
    expect(body.messages).toEqual([SYSTEM, ...history, { role: 'user', content: COMPACTION_INSTRUCTIONS }]);
    expect(result.compactedHistory).toEqual([
      { role: 'user', content: `${SUMMARY_PREFIX}Goal: ship it. Next steps: test.` },
    ]);
    expect(result.tokenUsage.input_tokens).toBe(40);
  });

  it('auto: the first request of a turn past 80 % is a summary call; the next holds summary + recent', async () => {
    // context 4000: 12000 characters of older history + 1440 of tool specs ≈ 3367 tokens > 3200.
    server.enqueue(textReply(['SUMMARY']), finishReply('done'));
    const history: Message[] = [
      { role: 'user', content: 'x'.repeat(6000) },
      { role: 'assistant', content: 'y'.repeat(6000) },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'w' },
    ];
    const result = await runner(4000, 100).run(makeAgent(), 'go', { initialMessages: history });

    expect(result.status).toBe('completed');
    expect(server.requests).toHaveLength(2);
    const [summary, next] = server.requests.map((request) => request.body ?? {});
    expect(summary).not.toHaveProperty('tools');
    expect(summary.messages).toEqual([
      SYSTEM,
      ...history.slice(0, 2),
      { role: 'user', content: COMPACTION_INSTRUCTIONS },
    ]);
    expect(next.tools).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'function' })]));
    expect(next.messages).toEqual([
      SYSTEM,
      { role: 'user', content: `${SUMMARY_PREFIX}SUMMARY` },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'w' },
      { role: 'user', content: 'go' },
    ]);
    expect(eventsOf(result.events, 'context_compaction_completed')[0]).toMatchObject({
      trigger: 'auto',
      messages_before: 5,
      messages_after: 4,
    });
    expect(result.compactedHistory?.slice(0, 4)).toEqual((next.messages as unknown[]).slice(1));
  });
});
