import type { AssistantToolCall, Message } from '../../../../src/runtime/messages';
import { plannedToolArguments } from '../../../../src/core/threads/planned-tool-arguments';

function call(id: string, args: string): AssistantToolCall {
  return { id, type: 'function', function: { name: 'read_file', arguments: args } };
}

describe('plannedToolArguments (a conversation read back for calls that never ran)', () => {
  const messages: Message[] = [
    { role: 'user', content: 'go' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [call('c1', '{"path":"a.txt","start_line":0}'), call('c2', '{"path":"b.txt"}')],
    },
    { role: 'tool', tool_call_id: 'c1', content: '{"ok":false}' },
    { role: 'assistant', content: '', tool_calls: [call('c3', '[1,2]'), call('c4', '{not json')] },
  ];

  it('decodes the arguments of the wanted calls only', () => {
    expect(plannedToolArguments(messages, new Set(['c1']))).toEqual(
      new Map([['c1', { path: 'a.txt', start_line: 0 }]]),
    );
  });

  it('leaves out arguments that are not a JSON object (those calls never reached planning)', () => {
    expect(plannedToolArguments(messages, new Set(['c3', 'c4', 'missing']))).toEqual(new Map());
  });
});
