import type { StreamCallbacks } from '../../../../src/runtime/model/types';
import { StreamAssembler, StreamChunkError } from '../../../../src/runtime/llm/stream-assembler';

type Event =
  | ['content', string]
  | ['reasoning', string]
  | ['named', string, string, number]
  | ['arguments', string, string, number, string, number];

function recorder(): { events: Event[]; callbacks: StreamCallbacks } {
  const events: Event[] = [];
  return {
    events,
    callbacks: {
      onContent: (fragment) => events.push(['content', fragment]),
      onReasoning: (fragment) => events.push(['reasoning', fragment]),
      onToolCallNamed: (call) => events.push(['named', call.toolCallId, call.toolName, call.index]),
      onToolCallArguments: (call) =>
        events.push([
          'arguments',
          call.toolCallId,
          call.toolName,
          call.index,
          call.fragment,
          call.argumentsChars,
        ]),
    },
  };
}

function delta(value: Record<string, unknown>, finishReason: string | null = null): unknown {
  return { choices: [{ index: 0, delta: value, finish_reason: finishReason }] };
}

function toolDelta(...fragments: Array<Record<string, unknown>>): unknown {
  return delta({ tool_calls: fragments });
}

function assemble(chunks: unknown[]) {
  const { events, callbacks } = recorder();
  const assembler = new StreamAssembler(callbacks);
  for (const chunk of chunks) assembler.acceptPayload(JSON.stringify(chunk));
  return { events, result: assembler.finish(), delivered: assembler.deliveredOutput };
}

describe('StreamAssembler', () => {
  it('reports non-empty content fragments and concatenates them', () => {
    const { events, result, delivered } = assemble([
      delta({ role: 'assistant', content: '' }),
      delta({ content: 'Hel' }),
      delta({ content: null }),
      delta({ content: 'lo' }),
      delta({}, 'stop'),
    ]);
    expect(events).toEqual([
      ['content', 'Hel'],
      ['content', 'lo'],
    ]);
    expect(result).toEqual({
      content: 'Hello',
      toolCalls: [],
      finishReason: 'stop',
      usage: null,
      outputChars: 5,
    });
    expect(delivered).toBe(true);
  });

  it('an empty first content chunk is not delivered output', () => {
    const { events, delivered } = assemble([delta({ role: 'assistant', content: '' })]);
    expect(events).toEqual([]);
    expect(delivered).toBe(false);
  });

  it('takes reasoning from reasoning_content or reasoning', () => {
    const { events, result } = assemble([
      delta({ reasoning_content: 'think ' }),
      delta({ reasoning: 'more' }),
      delta({ reasoning_content: '' }),
      delta({ content: 'answer' }),
    ]);
    expect(events).toEqual([
      ['reasoning', 'think '],
      ['reasoning', 'more'],
      ['content', 'answer'],
    ]);
    expect(result.reasoningContent).toBe('think more');
  });

  it('omits reasoningContent and finishReason when none arrived', () => {
    const { result } = assemble([delta({ content: 'x' })]);
    expect(result).not.toHaveProperty('reasoningContent');
    expect(result).not.toHaveProperty('finishReason');
  });

  it('assembles two parallel tool calls from interleaved, fragmented arguments', () => {
    const { events, result } = assemble([
      toolDelta({ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }),
      toolDelta({
        index: 1,
        id: 'call_b',
        type: 'function',
        function: { name: 'bash', arguments: '{"comm' },
      }),
      toolDelta({ index: 0, function: { arguments: '{"path":' } }),
      toolDelta({ index: 1, function: { arguments: 'and":"ls"}' } }),
      toolDelta({ index: 0, id: '', function: { arguments: '"a.txt"}' } }),
      delta({}, 'tool_calls'),
    ]);
    expect(events).toEqual([
      ['named', 'call_a', 'read_file', 0],
      ['named', 'call_b', 'bash', 1],
      ['arguments', 'call_b', 'bash', 1, '{"comm', 6],
      ['arguments', 'call_a', 'read_file', 0, '{"path":', 8],
      ['arguments', 'call_b', 'bash', 1, 'and":"ls"}', 16],
      ['arguments', 'call_a', 'read_file', 0, '"a.txt"}', 16],
    ]);
    expect(result.toolCalls).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
      { id: 'call_b', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } },
    ]);
    expect(result.finishReason).toBe('tool_calls');
  });

  it('several calls in one delta are keyed by their index', () => {
    const { result } = assemble([
      toolDelta(
        { index: 0, id: 'a', function: { name: 'x', arguments: '{' } },
        { index: 1, id: 'b', function: { name: 'y', arguments: '[' } },
      ),
      toolDelta({ index: 1, function: { arguments: ']' } }, { index: 0, function: { arguments: '}' } }),
    ]);
    expect(result.toolCalls.map((call) => [call.id, call.function.arguments])).toEqual([
      ['a', '{}'],
      ['b', '[]'],
    ]);
  });

  it('keeps the first non-empty id, the last non-empty name, and orders calls by first sight', () => {
    const { result } = assemble([
      toolDelta({ index: 3, id: '', function: { name: 'first' } }),
      toolDelta({ index: 1, id: 'call_one', function: { name: 'one', arguments: '{}' } }),
      toolDelta({ index: 3, id: 'call_three', function: { name: 'second' } }),
      toolDelta({ index: 3, id: 'call_other', function: { name: '' } }),
    ]);
    expect(result.toolCalls).toEqual([
      { id: 'call_three', type: 'function', function: { name: 'second', arguments: '' } },
      { id: 'call_one', type: 'function', function: { name: 'one', arguments: '{}' } },
    ]);
  });

  it('names a call without id call_stream_<index>', () => {
    const { events, result } = assemble([
      toolDelta({ index: 2, function: { name: 'bash', arguments: '{}' } }),
    ]);
    expect(result.toolCalls[0].id).toBe('call_stream_2');
    expect(events[0]).toEqual(['named', 'call_stream_2', 'bash', 2]);
  });

  it('drops calls that never got a name, but reports arguments that preceded the name once named', () => {
    const { events, result } = assemble([
      toolDelta({ index: 0, id: 'nameless', function: { arguments: '{"a":1}' } }),
      toolDelta({ index: 1, id: 'late', function: { arguments: '{"b":' } }),
      toolDelta({ index: 1, function: { name: 'late_tool', arguments: '2}' } }),
    ]);
    expect(events).toEqual([
      ['named', 'late', 'late_tool', 1],
      ['arguments', 'late', 'late_tool', 1, '{"b":2}', 7],
    ]);
    expect(result.toolCalls.map((call) => call.id)).toEqual(['late']);
  });

  it('keys index-less fragments by id, then by arrival position', () => {
    const { result } = assemble([
      toolDelta({ id: 'call_x', function: { name: 'x', arguments: '{"q":' } }),
      toolDelta({ function: { arguments: '1}' } }),
    ]);
    expect(result.toolCalls).toEqual([
      { id: 'call_x', type: 'function', function: { name: 'x', arguments: '{"q":1}' } },
    ]);
  });

  it('keeps the last non-null usage object, top-level or inside the choice', () => {
    const { result } = assemble([
      { choices: [{ delta: { content: 'a' } }], usage: null },
      { choices: [], usage: { prompt_tokens: 1 } },
      { choices: [{ delta: {}, finish_reason: 'stop', usage: { prompt_tokens: 2 } }] },
      { choices: [], usage: null },
    ]);
    expect(result.usage).toEqual({ prompt_tokens: 2 });
  });

  it('accepts a non-streamed completion body (choices[0].message)', () => {
    const { events, result } = assemble([
      {
        choices: [
          {
            message: {
              role: 'assistant',
              content: 'done',
              tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 4, completion_tokens: 2 },
      },
    ]);
    expect(events).toEqual([
      ['content', 'done'],
      ['named', 'c1', 'f', 0],
      ['arguments', 'c1', 'f', 0, '{}', 2],
    ]);
    expect(result.toolCalls).toHaveLength(1);
    expect(result.usage).toEqual({ prompt_tokens: 4, completion_tokens: 2 });
  });

  it.each([
    ['invalid JSON', 'data that is not json', /^invalid stream chunk: .+/, null],
    ['a JSON value that is not an object', '42', /^invalid stream chunk: expected a JSON object$/, null],
    [
      'an error payload',
      '{"error":{"message":"upstream overloaded","type":"server_error"}}',
      /^upstream overloaded$/,
      null,
    ],
    [
      'an error payload with a status code',
      '{"error":{"message":"slow down","code":429}}',
      /^slow down$/,
      429,
    ],
    ['an error payload without message', '{"error":{"type":"weird"}}', /^\{"type":"weird"\}$/, null],
    ['an error string', '{"error":"broken"}', /^broken$/, null],
  ])('fails the attempt on %s', (_name, payload, message, status) => {
    const assembler = new StreamAssembler(recorder().callbacks);
    let thrown: unknown;
    try {
      assembler.acceptPayload(payload);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StreamChunkError);
    expect((thrown as StreamChunkError).message).toMatch(message);
    expect((thrown as StreamChunkError).status).toBe(status);
  });

  it('counts output characters for the usage estimate', () => {
    const { result } = assemble([
      delta({ reasoning_content: 'abc' }),
      delta({ content: 'de' }),
      toolDelta({ index: 0, id: 'c', function: { name: 'fn', arguments: '{}' } }),
    ]);
    expect(result.outputChars).toBe(3 + 2 + 2 + 2);
  });
});
