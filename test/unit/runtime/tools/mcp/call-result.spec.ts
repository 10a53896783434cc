import { callResultOutput, callResultText } from '../../../../../src/runtime/tools/mcp/call-result';

describe('MCP result → tool output (docs/spec/mcp.md §3)', () => {
  it('joins the parts in order with newlines', () => {
    expect(
      callResultText({
        content: [
          { type: 'text', text: 'one' },
          { type: 'image', mimeType: 'image/png' },
          { type: 'audio', mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'file:///a', text: 'body' } },
          { type: 'resource', resource: { uri: 'file:///b' } },
        ],
      }),
    ).toBe('one\n[image: image/png]\n[audio: audio/wav]\nbody\n[resource: file:///b]');
  });

  it('uses structuredContent as compact JSON only when there is no text part', () => {
    expect(callResultText({ content: [], structuredContent: { a: 1 } })).toBe('{"a":1}');
    expect(callResultText({ content: [{ type: 'text', text: 't' }], structuredContent: { a: 1 } })).toBe('t');
  });

  it('maps isError to a tool error mcp_tool_error', () => {
    expect(callResultOutput({ content: [{ type: 'text', text: 'bad' }], isError: true })).toEqual({
      type: 'error',
      message: 'bad',
      code: 'mcp_tool_error',
    });
    expect(callResultOutput({ content: [{ type: 'text', text: 'ok' }] })).toEqual({
      type: 'text',
      text: 'ok',
    });
  });
});
