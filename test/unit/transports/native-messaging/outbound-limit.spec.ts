import {
  cutToJsonBytes,
  fitToNativeLimit,
  NATIVE_MESSAGE_LIMIT_BYTES,
  SHORTEST_CUT_BYTES,
} from '../../../../src/transports/native-messaging/outbound-limit';

const LIMIT = NATIVE_MESSAGE_LIMIT_BYTES;
const THREAD = 'thread_2149e90a711b4156a28c59a0f06ebc63';
const TURN = 'turn_2f53beaa8e6d4a0ba0b9768268cf7a2a';
const ITEM = 'item_11fb76d3c0e34342b650e320968128a5';

const bytesOf = (json: string): number => Buffer.byteLength(json, 'utf8');
/** The members the assertions read; `toEqual` checks the whole shape where it matters. */
interface ParsedMessage {
  jsonrpc: string;
  id?: string | number;
  method?: string;
  params: Record<string, unknown> & {
    payload: { text: string; output: string };
    delta: string;
    truncated?: boolean;
    arguments: { command: string };
  };
  result: { truncated?: boolean; items: Array<{ itemId: string }>; values: string[] };
  error: { code: number; message: string };
}
const parse = (json: string): ParsedMessage => JSON.parse(json) as ParsedMessage;

function deltaNotification(text: string): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    method: 'item/agentMessage/delta',
    params: {
      itemId: ITEM,
      threadId: THREAD,
      turnId: TURN,
      type: 'agentMessage',
      status: 'inProgress',
      payload: { text },
      createdAt: 1780410000412,
      updatedAt: 1780410000455,
      delta: text,
    },
  };
}

/** A thread/read result with `count` small items: structure, not strings, makes it big. */
function manyItemsResponse(id: number | string, count: number): Record<string, unknown> {
  const items = Array.from({ length: count }, (_, index) => ({
    itemId: `item_${String(index).padStart(32, '0')}`,
    threadId: THREAD,
    turnId: TURN,
    type: 'toolCall',
    status: 'failed',
    payload: { toolCallId: `call_${index}`, toolName: 'nope', executionStarted: false, durationMs: null },
    createdAt: 1780410000412 + index,
    updatedAt: 1780410000412 + index,
  }));
  return { jsonrpc: '2.0', id, result: { thread: { threadId: THREAD, status: 'idle' }, turns: [], items } };
}

describe('fitToNativeLimit (docs/spec/native-messaging.md §1, the 1 MiB outbound rule)', () => {
  it('passes a message of at most 1,048,576 bytes unchanged', () => {
    const small = JSON.stringify(deltaNotification('hello'));
    expect(fitToNativeLimit(small)).toEqual({ kind: 'unchanged', json: small });
    const withText = (text: string) =>
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'item/completed',
        params: { threadId: THREAD, payload: { text } },
      });
    const base = bytesOf(withText(''));
    const exact = withText('x'.repeat(LIMIT - base));
    expect(bytesOf(exact)).toBe(LIMIT);
    expect(fitToNativeLimit(exact).kind).toBe('unchanged');
    const oneMore = withText('x'.repeat(LIMIT - base + 1));
    expect(bytesOf(oneMore)).toBe(LIMIT + 1);
    expect(fitToNativeLimit(oneMore).kind).toBe('truncated');
  });

  it('shortens the longest strings of params to one length, adds truncated: true, and fits', () => {
    const text = 'abcdefghij'.repeat(150_000); // 1.5 MB, twice in the message
    const json = JSON.stringify(deltaNotification(text));
    const fitted = fitToNativeLimit(json);
    expect(fitted.kind).toBe('truncated');
    expect(fitted).toMatchObject({ label: 'item/agentMessage/delta', originalBytes: bytesOf(json) });
    expect(bytesOf(fitted.json)).toBeLessThanOrEqual(LIMIT);
    const message = parse(fitted.json);
    const { payload, delta, truncated, ...identity } = message.params;
    expect(truncated).toBe(true);
    expect(identity).toEqual({
      itemId: ITEM,
      threadId: THREAD,
      turnId: TURN,
      type: 'agentMessage',
      status: 'inProgress',
      createdAt: 1780410000412,
      updatedAt: 1780410000455,
    });
    expect(text.startsWith(payload.text)).toBe(true);
    expect(delta).toBe(payload.text);
    // The largest common length that fits: little room is left unused.
    expect(bytesOf(fitted.json)).toBeGreaterThan(LIMIT - 16);
    expect(message.method).toBe('item/agentMessage/delta');
    expect(message.jsonrpc).toBe('2.0');
  });

  it('leaves strings that are already shorter than the cut untouched', () => {
    const short = 'keep me '.repeat(1000);
    const json = JSON.stringify({
      jsonrpc: '2.0',
      method: 'item/completed',
      params: { threadId: THREAD, payload: { text: 'y'.repeat(2_000_000), output: short } },
    });
    const params = parse(fitToNativeLimit(json).json).params;
    expect(params.payload.output).toBe(short);
    expect(params.payload.text).toBe('y'.repeat(params.payload.text.length));
    expect(params.truncated).toBe(true);
  });

  it('shortens a response result the same way, keeping its id and type', () => {
    const json = JSON.stringify({
      jsonrpc: '2.0',
      id: 'read-1',
      result: {
        thread: { threadId: THREAD },
        items: [{ itemId: ITEM, payload: { text: 'z'.repeat(3_000_000) } }],
      },
    });
    const fitted = fitToNativeLimit(json);
    expect(fitted).toMatchObject({ kind: 'truncated', label: 'response "read-1"' });
    const message = parse(fitted.json);
    expect(message.id).toBe('read-1');
    expect(message.result.truncated).toBe(true);
    expect(message.result.items[0].itemId).toBe(ITEM);
    expect(bytesOf(fitted.json)).toBeLessThanOrEqual(LIMIT);
  });

  it('counts bytes, not characters: multi-byte text, escapes and emoji stay valid and fit', () => {
    const text = 'é"\\\n😀\u0001€ '.repeat(200_000);
    const json = JSON.stringify(deltaNotification(text));
    const fitted = fitToNativeLimit(json);
    expect(bytesOf(fitted.json)).toBeLessThanOrEqual(LIMIT);
    const cut: string = parse(fitted.json).params.delta;
    expect(text.startsWith(cut)).toBe(true);
    expect(cut.length).toBeGreaterThan(1000);
    // Never half of a surrogate pair.
    expect(/[\ud800-\udbff]$/.test(cut)).toBe(false);
  });

  it('turns a response that cannot fit by shortening strings into -32603 with the same id', () => {
    const json = JSON.stringify(manyItemsResponse(7, 6000));
    expect(bytesOf(json)).toBeGreaterThan(LIMIT);
    const fitted = fitToNativeLimit(json);
    expect(fitted).toMatchObject({ kind: 'replaced', label: 'response 7', originalBytes: bytesOf(json) });
    expect(parse(fitted.json)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32603,
        message: `message exceeds the native messaging limit (${bytesOf(json)} bytes); request less (thread/read limit, afterItemId)`,
      },
    });
  });

  it('turns an oversized error response into -32603 with the same id', () => {
    const json = JSON.stringify({
      jsonrpc: '2.0',
      id: 'x',
      error: { code: -32602, message: 'm'.repeat(LIMIT) },
    });
    const message = parse(fitToNativeLimit(json).json);
    expect(message.id).toBe('x');
    expect(message.error.code).toBe(-32603);
    expect(message.error.message).toBe(
      `message exceeds the native messaging limit (${bytesOf(json)} bytes); request less (thread/read limit, afterItemId)`,
    );
  });

  it('drops a notification that cannot fit and sends error/warning message_too_large instead', () => {
    const json = JSON.stringify({
      jsonrpc: '2.0',
      method: 'item/toolCall/delta',
      params: {
        threadId: THREAD,
        turnId: TURN,
        itemId: ITEM,
        delta: { values: Array.from({ length: 300_000 }, (_, i) => i) },
      },
    });
    const fitted = fitToNativeLimit(json);
    expect(fitted).toMatchObject({ kind: 'replaced', label: 'item/toolCall/delta' });
    expect(parse(fitted.json)).toEqual({
      jsonrpc: '2.0',
      method: 'error/warning',
      params: {
        threadId: THREAD,
        turnId: TURN,
        code: 'message_too_large',
        message: `item/toolCall/delta exceeds the native messaging limit (${bytesOf(json)} bytes) and was dropped`,
      },
    });
  });

  it('shortens a server request (approval/request) like a notification, keeping its id', () => {
    const json = JSON.stringify({
      jsonrpc: '2.0',
      id: 'approval_835feb216be144a6ad31ceea88808c82',
      method: 'approval/request',
      params: { threadId: THREAD, turnId: TURN, arguments: { command: `echo ${'q'.repeat(1_200_000)}` } },
    });
    const message = parse(fitToNativeLimit(json).json);
    expect(message.id).toBe('approval_835feb216be144a6ad31ceea88808c82');
    expect(message.method).toBe('approval/request');
    expect(message.params.truncated).toBe(true);
    expect(message.params.arguments.command.startsWith('echo qqq')).toBe(true);
  });

  it(`never cuts a string below ${SHORTEST_CUT_BYTES} bytes: ids survive, or the message is replaced`, () => {
    // 40,000 strings of 100 bytes: cutting all of them to 64 bytes is not enough.
    const values = Array.from({ length: 40_000 }, (_, i) => `${String(i).padStart(8, '0')}${'v'.repeat(90)}`);
    const json = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { values } });
    expect(fitToNativeLimit(json).kind).toBe('replaced');
    // 12,000 of them can be cut to fit: each keeps at least 62 characters.
    const fitting = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { values: values.slice(0, 12_000) } });
    const fitted = parse(fitToNativeLimit(fitting).json);
    expect(fitted.result.truncated).toBe(true);
    for (const [index, value] of fitted.result.values.entries()) {
      expect(value.length).toBeGreaterThanOrEqual(SHORTEST_CUT_BYTES - 2);
      expect(values[index].startsWith(value)).toBe(true);
    }
  });
});

describe('cutToJsonBytes', () => {
  it.each<[string, number, string]>([
    ['abcdef', 5, 'abc'],
    ['abcdef', 2, ''],
    ['abcdef', 100, 'abcdef'],
    ['a"b', 4, 'a'], // `"` takes two bytes escaped
    ['a"b', 5, 'a"'],
    ['éé', 5, 'é'], // two UTF-8 bytes each
    ['😀x', 5, ''], // never half a surrogate pair
    ['😀x', 6, '😀'],
    ['\u0001x', 7, ''], // \u0001 is six bytes
    ['\nx', 4, '\n'],
  ])('%j within %i bytes → %j', (value, maxBytes, expected) => {
    const cut = cutToJsonBytes(value, maxBytes);
    expect(cut).toBe(expected);
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(Math.max(2, maxBytes));
  });
});
