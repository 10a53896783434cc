/** Pure compaction rules (docs/spec/history.md §1): prompt estimate, 80 % trigger, keep rule, summary request. */
import { splitForCompaction } from '../../../../src/runtime/compaction/keep-rule';
import {
  estimatePromptTokens,
  exceedsCompactionThreshold,
  promptAnchor,
} from '../../../../src/runtime/compaction/prompt-estimate';
import {
  COMPACTION_INSTRUCTIONS,
  SUMMARY_PREFIX,
  summaryMessage,
  summaryRequestMessages,
  summarySettings,
} from '../../../../src/runtime/compaction/summary-request';
import type { AssistantMessage, Message, ToolMessage, UserMessage } from '../../../../src/runtime/messages';
import type { ToolSpec } from '../../../../src/runtime/model/types';
import { missingUsage, normalizeProviderUsage } from '../../../../src/runtime/usage/normalize';

const system: Message = { role: 'system', content: 'sys!' }; // 4 chars
const user = (content: string): UserMessage => ({ role: 'user', content });
const assistant = (content: string, callIds: string[] = []): AssistantMessage => ({
  role: 'assistant',
  content,
  ...(callIds.length > 0
    ? {
        tool_calls: callIds.map((id) => ({
          id,
          type: 'function' as const,
          function: { name: 'ab', arguments: '{}' },
        })),
      }
    : {}),
});
const tool = (id: string, content: string): ToolMessage => ({ role: 'tool', tool_call_id: id, content });
const spec: ToolSpec = { type: 'function', function: { name: 't', description: '', parameters: {} } };
const specChars = [...JSON.stringify([spec])].length;

describe('prompt-size estimate', () => {
  it.each([
    ['no messages, no tools', [], [], null, 0],
    ['1 token per 4 chars of the messages, rounded up', [system, user('x')], [], null, Math.ceil(5 / 4)],
    ['tool specs count as sent characters', [system], [spec], null, Math.ceil((4 + specChars) / 4)],
    [
      'assistant reasoning and tool call names/arguments count',
      [{ ...assistant('abcd', ['c1']), reasoning_content: 'efgh' }],
      [],
      null,
      Math.ceil((4 + 4 + 2 + 2) / 4),
    ],
    [
      'with a provider figure: prompt tokens + what was added since (tool specs not recounted)',
      [system, user('x'.repeat(400)), assistant('y'.repeat(8)), tool('c1', 'z'.repeat(9))],
      [spec],
      { promptTokens: 1000, sentMessages: 2 },
      1000 + Math.ceil(17 / 4),
    ],
    [
      'a figure for more messages than there are (history replaced) is ignored',
      [system, user('abcd')],
      [],
      { promptTokens: 1000, sentMessages: 5 },
      2,
    ],
  ] as Array<[string, Message[], ToolSpec[], { promptTokens: number; sentMessages: number } | null, number]>)(
    '%s',
    (_name, messages, tools, anchor, expected) => {
      expect(estimatePromptTokens(messages, tools, anchor)).toBe(expected);
    },
  );

  it('only provider-reported usage with a prompt count becomes the figure', () => {
    expect(
      promptAnchor(normalizeProviderUsage({ prompt_tokens: 321, completion_tokens: 5 }, 'x'), 7),
    ).toEqual({
      promptTokens: 321,
      sentMessages: 7,
    });
    expect(promptAnchor(missingUsage(), 7)).toBeNull();
    expect(promptAnchor(normalizeProviderUsage({ completion_tokens: 5 }, 'x'), 7)).toBeNull();
  });
});

describe('80 % trigger', () => {
  it.each([
    [800, 1000, false],
    [801, 1000, true],
    [0, 1000, false],
    [10 ** 9, null, false],
  ] as Array<[number, number | null, boolean]>)(
    'estimate %d of context %s → %s',
    (estimate, context, expected) => {
      expect(exceedsCompactionThreshold(estimate, context)).toBe(expected);
    },
  );
});

describe('keep rule', () => {
  // context 100 → the verbatim tail may hold 30 tokens (120 chars).
  const u1 = user('u'.repeat(40)); // 10 tokens
  const a1 = assistant('a'.repeat(40)); // 10
  const u2 = user('v'.repeat(40)); // 10
  const call = assistant('c'.repeat(36), ['t1', 't2']); // 36 + 2×(2+2) = 44 chars → 11
  const r1 = tool('t1', 'r'.repeat(40)); // 10
  const r2 = tool('t2', 's'.repeat(40)); // 10
  const a2 = assistant('b'.repeat(40)); // 10

  it.each([
    ['everything fits: nothing to summarize', [u1, a1], 100, null, [], [u1, a1]],
    ['no context length keeps everything', [u1, a1, u2, a2], null, null, [], [u1, a1, u2, a2]],
    [
      'walks back until the next message would pass 30 %',
      [u1, a1, u2, a2, a1],
      100,
      null,
      [u1, a1],
      [u2, a2, a1],
    ],
    [
      'a tool call and its results move together (31 tokens > 30: the whole unit goes)',
      [u1, u2, call, r1, r2, a2],
      100,
      null,
      [u1, u2, call, r1, r2],
      [a2],
    ],
    [
      'the current turn’s latest user message is kept even when older than the tail',
      [u1, a1, u2, call, r1, r2, a2],
      100,
      u2,
      [u1, a1, u2, call, r1, r2],
      [u2, a2],
    ],
    ['a pinned message inside the tail is not repeated', [u1, a1, u2, a2], 100, u2, [u1], [a1, u2, a2]],
    [
      'the newest message alone too big: nothing verbatim',
      [u1, user('x'.repeat(200))],
      100,
      null,
      [u1, user('x'.repeat(200))],
      [],
    ],
  ] as Array<[string, Message[], number | null, Message | null, Message[], Message[]]>)(
    '%s',
    (_name, history, contextLength, pinned, summarized, kept) => {
      expect(splitForCompaction(history, contextLength, pinned)).toEqual({ summarized, kept });
    },
  );
});

describe('summary request', () => {
  it('is system instructions, the history being compacted, then the hand-off instructions', () => {
    const history = [user('hi'), assistant('hello')];
    expect(
      summaryRequestMessages(system, history, { context_length: null, max_output_tokens: null }),
    ).toEqual([system, ...history, { role: 'user', content: COMPACTION_INSTRUCTIONS }]);
  });

  it('a history too long for one request loses its oldest segments, so the request fits', () => {
    const old = [user('a'.repeat(4000)), assistant('b')]; // > 1000 tokens on its own
    const recent = [user('c'), assistant('d', ['t1']), tool('t1', 'e')];
    expect(
      summaryRequestMessages(system, [...old, ...recent], { context_length: 1000, max_output_tokens: 100 }),
    ).toEqual([system, ...recent, { role: 'user', content: COMPACTION_INSTRUCTIONS }]);
  });

  it('asks for goal, decisions, what was done, files, open questions and next steps', () => {
    for (const heading of ['Goal:', 'Decisions:', 'Done:', 'Files:', 'Open questions:', 'Next steps:']) {
      expect(COMPACTION_INSTRUCTIONS).toContain(heading);
    }
  });

  it('the summary message is one user message with the fixed prefix', () => {
    expect(SUMMARY_PREFIX).toBe('Summary of the conversation so far:\n');
    expect(summaryMessage('S')).toEqual({ role: 'user', content: 'Summary of the conversation so far:\nS' });
  });

  it('drops the tool knobs from the settings and keeps the rest', () => {
    expect(
      summarySettings({ tool_choice: 'required', parallel_tool_calls: true, max_tokens: 50, temperature: 0 }),
    ).toEqual({ max_tokens: 50, temperature: 0 });
  });
});
