import { classifyEnvelope, echoIdOf } from '../../../src/rpc/envelope';

const MAX_SAFE = 9007199254740991;

describe('classifyEnvelope (docs/spec/protocol.md §1.3)', () => {
  it.each<[string, unknown, unknown]>([
    [
      'request',
      { jsonrpc: '2.0', id: 1, method: 'm', params: { a: 1 } },
      { kind: 'request', id: 1, method: 'm', params: { a: 1 } },
    ],
    [
      'request without jsonrpc',
      { id: 'x', method: 'm' },
      { kind: 'request', id: 'x', method: 'm', params: undefined },
    ],
    [
      'request with empty string id',
      { id: '', method: 'm' },
      { kind: 'request', id: '', method: 'm', params: undefined },
    ],
    [
      'request with null params (= absent)',
      { id: 1, method: 'm', params: null },
      { kind: 'request', id: 1, method: 'm', params: undefined },
    ],
    [
      'request with array params (validated per method)',
      { id: 1, method: 'm', params: [1] },
      { kind: 'request', id: 1, method: 'm', params: [1] },
    ],
    [
      'request with max safe integer id',
      { id: MAX_SAFE, method: 'm' },
      { kind: 'request', id: MAX_SAFE, method: 'm', params: undefined },
    ],
    [
      'request with negative id',
      { id: -MAX_SAFE, method: 'm' },
      { kind: 'request', id: -MAX_SAFE, method: 'm', params: undefined },
    ],
    [
      'notification',
      { jsonrpc: '2.0', method: 'initialized' },
      { kind: 'notification', method: 'initialized', params: undefined },
    ],
    [
      'notification with params',
      { method: 'n', params: 5 },
      { kind: 'notification', method: 'n', params: 5 },
    ],
    [
      'response',
      { jsonrpc: '2.0', id: 'approval_1', result: { decision: 'allow' } },
      { kind: 'response', id: 'approval_1', result: { decision: 'allow' } },
    ],
    ['response with null result', { id: 'a', result: null }, { kind: 'response', id: 'a', result: null }],
    [
      'error response',
      { id: 'a', error: { code: -1, message: 'no' } },
      { kind: 'error-response', id: 'a', error: { code: -1, message: 'no' } },
    ],
    [
      'error response with null id',
      { id: null, error: { code: 1, message: '' } },
      { kind: 'error-response', id: null, error: { code: 1, message: '' } },
    ],
    [
      'error response keeps data, drops other members',
      { id: 'a', error: { code: 1, message: 'm', data: null, extra: 1 } },
      { kind: 'error-response', id: 'a', error: { code: 1, message: 'm', data: null } },
    ],
  ])('%s', (_name, value, expected) => {
    expect(classifyEnvelope(value)).toEqual(expected);
  });

  it.each<[string, unknown, string | number | null]>([
    ['batch array', [{ id: 1, method: 'm' }], null],
    ['empty batch', [], null],
    ['number', 5, null],
    ['string', 'x', null],
    ['null', null, null],
    ['boolean', true, null],
    ['jsonrpc 1.0 (spec example)', { jsonrpc: '1.0', id: 7, method: 'model/list' }, 7],
    ['jsonrpc as number', { jsonrpc: 2, id: 7, method: 'm' }, 7],
    ['jsonrpc null', { jsonrpc: null, id: 7, method: 'm' }, 7],
    ['null id on a request', { id: null, method: 'm' }, null],
    ['boolean id', { id: true, method: 'm' }, null],
    ['fractional id', { id: 1.5, method: 'm' }, null],
    ['unsafe integer id', { id: MAX_SAFE + 1, method: 'm' }, null],
    ['object id', { id: { a: 1 }, method: 'm' }, null],
    ['array id', { id: [1], method: 'm' }, null],
    ['empty method', { id: 3, method: '' }, 3],
    ['non-string method', { id: 3, method: 5 }, 3],
    ['null method', { id: 3, method: null }, 3],
    ['empty method on a notification', { method: '' }, null],
    ['unknown member on a request', { id: 'r', method: 'm', extra: 1 }, 'r'],
    ['result on a notification shape', { method: 'm', result: 1 }, null],
    ['method and result', { id: 4, method: 'm', result: 1 }, 4],
    ['method and error', { id: 4, method: 'm', error: { code: 1, message: 'x' } }, 4],
    ['result and error', { id: 4, result: 1, error: { code: 1, message: 'x' } }, 4],
    ['params on a response', { id: 'a', result: 1, params: {} }, 'a'],
    ['id only', { id: 4 }, 4],
    ['empty object', {}, null],
    ['response without id', { result: 1 }, null],
    ['response with null id', { id: null, result: 1 }, null],
    ['error response with string code', { id: 'a', error: { code: '1', message: 'x' } }, 'a'],
    ['error response with fractional code', { id: 'a', error: { code: 1.5, message: 'x' } }, 'a'],
    ['error response without message', { id: 'a', error: { code: 1 } }, 'a'],
    ['error response with non-object error', { id: 'a', error: 'boom' }, 'a'],
    ['error response with boolean id', { id: false, error: { code: 1, message: 'x' } }, null],
  ])('%s is invalid (echo id %p)', (_name, value, echoId) => {
    expect(classifyEnvelope(value)).toEqual({ kind: 'invalid', echoId });
  });

  it('treats a member present with value null as present (has semantics)', () => {
    expect(classifyEnvelope({ id: 1, method: 'm', result: null })).toEqual({ kind: 'invalid', echoId: 1 });
    expect(classifyEnvelope({ method: 'm', id: null })).toEqual({ kind: 'invalid', echoId: null });
  });

  it('treats an own __proto__ member from JSON.parse as an unknown member', () => {
    expect(classifyEnvelope(JSON.parse('{"id":1,"method":"m","__proto__":{}}'))).toEqual({
      kind: 'invalid',
      echoId: 1,
    });
  });
});

describe('echoIdOf (§1.4 id echo rule)', () => {
  it.each<[unknown, string | number | null]>([
    [{ id: 7 }, 7],
    [{ id: '7' }, '7'],
    [{ id: '' }, ''],
    [{ id: null }, null],
    [{ id: 1.5 }, null],
    [{}, null],
    [[{ id: 1 }], null],
    ['x', null],
  ])('%p → %p', (value, expected) => {
    expect(echoIdOf(value)).toEqual(expected);
  });
});
