import 'reflect-metadata';
import { RpcError, invalidParamsMessage } from '../../../../src/protocols/app-server-v1/errors';
import { validateParams } from '../../../../src/protocols/app-server-v1/params-validator';
import { CLIENT_METHODS, findClientRequest } from '../../../../src/protocols/app-server-v1/registry';

type Issue = { path: string; message: string };

function run(method: string, params: unknown): unknown {
  const spec = findClientRequest(method);
  if (spec === undefined) throw new Error(`not in registry: ${method}`);
  try {
    return { ok: validateParams(spec, params) };
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    return error.toErrorObject();
  }
}

const invalid = (message: string, errors: Issue[]) => ({ code: -32602, message, data: { errors } });
const MISSING = { code: -32602, message: 'Missing params' };
const NOT_OBJECT = invalid('Invalid params: params must be an object', [
  { path: '', message: 'must be an object' },
]);
const first = (path: string, message: string) =>
  invalid(`Invalid params: ${path} ${message}`, [{ path, message }]);

const REQUIRED_METHODS = CLIENT_METHODS.filter((m) => m.paramsMode === 'required').map((m) => m.method);
const OPTIONAL_METHODS = CLIENT_METHODS.filter((m) => m.paramsMode === 'optional').map((m) => m.method);

describe('params modes (§3.0)', () => {
  it.each(REQUIRED_METHODS)('%s: absent or null params → Missing params (no data)', (method) => {
    expect(run(method, undefined)).toEqual(MISSING);
  });

  it.each(OPTIONAL_METHODS)('%s: absent params means all defaults', (method) => {
    expect(run(method, undefined)).toHaveProperty('ok');
  });

  it.each(
    [...REQUIRED_METHODS, ...OPTIONAL_METHODS].flatMap((method) => [
      [method, [1]],
      [method, 'x'],
      [method, 5],
      [method, true],
    ]),
  )('%s: params %p → params must be an object', (method, params) => {
    expect(run(method, params)).toEqual(NOT_OBJECT);
  });

  it.each<[unknown]>([[undefined], [{}]])('schema/export accepts %p', (params) => {
    expect(run('schema/export', params)).toEqual({ ok: {} });
  });

  it.each<[unknown]>([[{ a: 1 }], [[]], ['x'], [0], [false]])('schema/export rejects %p', (params) => {
    expect(run('schema/export', params)).toEqual({
      code: -32602,
      message: 'params must be an empty object',
      data: { errors: [{ path: '', message: 'must be an empty object' }] },
    });
  });
});

const validThread = { threadId: 't' };

describe.each<[string, Array<[string, unknown, unknown]>]>([
  [
    'initialize',
    [
      ['valid', { clientInfo: { name: 'v-claw', version: '0.1.0' } }, 'ok'],
      ['unknown members ignored', { clientInfo: { name: 'a', x: 1 }, y: 2 }, 'ok'],
      ['missing clientInfo', {}, first('/clientInfo', 'is required')],
      ['null clientInfo', { clientInfo: null }, first('/clientInfo', 'is required')],
      ['clientInfo string', { clientInfo: 'x' }, first('/clientInfo', 'must be an object')],
      ['clientInfo array', { clientInfo: [{ name: 'a' }] }, first('/clientInfo', 'must be an object')],
      [
        'missing name',
        { clientInfo: {} },
        invalid('clientInfo.name is required', [{ path: '/clientInfo/name', message: 'is required' }]),
      ],
      [
        'null name',
        { clientInfo: { name: null } },
        invalid('clientInfo.name is required', [{ path: '/clientInfo/name', message: 'is required' }]),
      ],
      [
        'empty name',
        { clientInfo: { name: '' } },
        invalid('clientInfo.name is required', [{ path: '/clientInfo/name', message: 'must not be blank' }]),
      ],
      [
        'blank name',
        { clientInfo: { name: ' \t\n' } },
        invalid('clientInfo.name is required', [{ path: '/clientInfo/name', message: 'must not be blank' }]),
      ],
      ['name not a string', { clientInfo: { name: 5 } }, first('/clientInfo/name', 'must be a string')],
      [
        'title not a string',
        { clientInfo: { name: 'a', title: 1 } },
        first('/clientInfo/title', 'must be a string'),
      ],
      [
        'title null',
        { clientInfo: { name: 'a', title: null } },
        first('/clientInfo/title', 'must be a string'),
      ],
      [
        'version not a string',
        { clientInfo: { name: 'a', version: false } },
        first('/clientInfo/version', 'must be a string'),
      ],
      [
        'capabilities null',
        { clientInfo: { name: 'a' }, capabilities: null },
        first('/capabilities', 'must be an object'),
      ],
      [
        'capabilities array',
        { clientInfo: { name: 'a' }, capabilities: [] },
        first('/capabilities', 'must be an object'),
      ],
      [
        'experimentalApi not boolean',
        { clientInfo: { name: 'a' }, capabilities: { experimentalApi: 'yes' } },
        first('/capabilities/experimentalApi', 'must be a boolean'),
      ],
      [
        'optOut not an array',
        { clientInfo: { name: 'a' }, capabilities: { optOutNotificationMethods: 'x' } },
        first('/capabilities/optOutNotificationMethods', 'must be an array'),
      ],
      [
        'optOut elements by index',
        { clientInfo: { name: 'a' }, capabilities: { optOutNotificationMethods: ['ok', 1, 'ok', null] } },
        invalid('Invalid params: /capabilities/optOutNotificationMethods/1 must be a string', [
          { path: '/capabilities/optOutNotificationMethods/1', message: 'must be a string' },
          { path: '/capabilities/optOutNotificationMethods/3', message: 'must be a string' },
        ]),
      ],
      [
        'all violations in table-row order',
        {
          clientInfo: { name: 1, title: 2, version: 3 },
          capabilities: { experimentalApi: 1, optOutNotificationMethods: [1] },
        },
        invalid('Invalid params: /clientInfo/name must be a string', [
          { path: '/clientInfo/name', message: 'must be a string' },
          { path: '/clientInfo/title', message: 'must be a string' },
          { path: '/clientInfo/version', message: 'must be a string' },
          { path: '/capabilities/experimentalApi', message: 'must be a boolean' },
          { path: '/capabilities/optOutNotificationMethods/0', message: 'must be a string' },
        ]),
      ],
      [
        'blank name first keeps the special message',
        { clientInfo: { name: '' }, capabilities: null },
        invalid('clientInfo.name is required', [
          { path: '/clientInfo/name', message: 'must not be blank' },
          { path: '/capabilities', message: 'must be an object' },
        ]),
      ],
    ],
  ],
  [
    'thread/start',
    [
      ['empty', {}, 'ok'],
      ['cwd null', { cwd: null }, 'ok'],
      ['empty agentKey', { agentKey: '' }, 'ok'],
      ['agentKey not string', { agentKey: 1 }, first('/agentKey', 'must be a string')],
      ['agentKey null', { agentKey: null }, first('/agentKey', 'must be a string')],
      ['cwd wrong type', { cwd: 5 }, first('/cwd', 'must be a string or null')],
      ['metadata null', { metadata: null }, first('/metadata', 'must be an object')],
      ['metadata array', { metadata: [] }, first('/metadata', 'must be an object')],
      [
        'row order',
        { metadata: 1, cwd: 1, agentKey: 1 },
        invalid('Invalid params: /agentKey must be a string', [
          { path: '/agentKey', message: 'must be a string' },
          { path: '/cwd', message: 'must be a string or null' },
          { path: '/metadata', message: 'must be an object' },
        ]),
      ],
    ],
  ],
  [
    'thread/resume',
    [
      ['valid', { threadId: 't', subscribe: false, afterItemId: 'i' }, 'ok'],
      ['missing threadId', {}, first('/threadId', 'is required')],
      ['threadId number', { threadId: 1 }, first('/threadId', 'must be a string')],
      [
        'subscribe not boolean',
        { ...validThread, subscribe: 'no' },
        first('/subscribe', 'must be a boolean'),
      ],
      ['afterItemId null', { ...validThread, afterItemId: null }, first('/afterItemId', 'must be a string')],
    ],
  ],
  [
    'thread/read',
    [
      ['valid', { threadId: 't', limit: 1 }, 'ok'],
      ['limit 0', { ...validThread, limit: 0 }, first('/limit', 'must be a positive integer')],
      ['limit negative', { ...validThread, limit: -3 }, first('/limit', 'must be a positive integer')],
      ['limit fractional', { ...validThread, limit: 1.5 }, first('/limit', 'must be a positive integer')],
      ['limit string', { ...validThread, limit: '5' }, first('/limit', 'must be a positive integer')],
      ['limit null', { ...validThread, limit: null }, first('/limit', 'must be a positive integer')],
      ['afterItemId number', { ...validThread, afterItemId: 1 }, first('/afterItemId', 'must be a string')],
      [
        'row order',
        { limit: 0, afterItemId: 1 },
        invalid('Invalid params: /threadId is required', [
          { path: '/threadId', message: 'is required' },
          { path: '/afterItemId', message: 'must be a string' },
          { path: '/limit', message: 'must be a positive integer' },
        ]),
      ],
    ],
  ],
  [
    'thread/list',
    [
      ['empty', {}, 'ok'],
      ['limit bounds', { limit: 500 }, 'ok'],
      ['cursor string (checked by the handler)', { cursor: 'anything' }, 'ok'],
      ['archived not boolean', { archived: 1 }, first('/archived', 'must be a boolean')],
      ['includeArchived null', { includeArchived: null }, first('/includeArchived', 'must be a boolean')],
      ['limit 0', { limit: 0 }, first('/limit', 'must be an integer between 1 and 500')],
      ['limit 501', { limit: 501 }, first('/limit', 'must be an integer between 1 and 500')],
      ['limit fractional', { limit: 2.5 }, first('/limit', 'must be an integer between 1 and 500')],
      ['limit string', { limit: '10' }, first('/limit', 'must be an integer between 1 and 500')],
      ['cursor number', { cursor: 1 }, first('/cursor', 'must be a string')],
    ],
  ],
  [
    'thread/archive',
    [
      ['valid', validThread, 'ok'],
      ['missing threadId', {}, first('/threadId', 'is required')],
      ['threadId null', { threadId: null }, first('/threadId', 'is required')],
    ],
  ],
  [
    'thread/unsubscribe',
    [
      ['valid', validThread, 'ok'],
      ['threadId object', { threadId: {} }, first('/threadId', 'must be a string')],
    ],
  ],
  [
    'turn/start',
    [
      ['valid', { threadId: 't', input: [{ type: 'text', text: 'hi' }], metadata: {} }, 'ok'],
      ['empty input', { threadId: 't', input: [] }, 'ok'],
      [
        'missing input',
        validThread,
        invalid('input must be a list of objects', [{ path: '/input', message: 'is required' }]),
      ],
      [
        'input null',
        { ...validThread, input: null },
        invalid('input must be a list of objects', [{ path: '/input', message: 'is required' }]),
      ],
      [
        'input object',
        { ...validThread, input: { type: 'text' } },
        invalid('input must be a list of objects', [{ path: '/input', message: 'must be an array' }]),
      ],
      [
        'input elements by index',
        { ...validThread, input: [{}, 'x', [], null] },
        invalid('input must be a list of objects', [
          { path: '/input/1', message: 'must be an object' },
          { path: '/input/2', message: 'must be an object' },
          { path: '/input/3', message: 'must be an object' },
        ]),
      ],
      [
        'threadId first keeps the generic message',
        { input: 'x' },
        invalid('Invalid params: /threadId is required', [
          { path: '/threadId', message: 'is required' },
          { path: '/input', message: 'must be an array' },
        ]),
      ],
      [
        'metadata null',
        { ...validThread, input: [], metadata: null },
        first('/metadata', 'must be an object'),
      ],
    ],
  ],
  [
    'turn/steer',
    [
      ['valid', { threadId: 't', input: [], expectedTurnId: '' }, 'ok'],
      [
        'expectedTurnId null',
        { ...validThread, expectedTurnId: null, input: [] },
        first('/expectedTurnId', 'must be a string'),
      ],
      [
        'bad input',
        { ...validThread, input: [1] },
        invalid('input must be a list of objects', [{ path: '/input/0', message: 'must be an object' }]),
      ],
    ],
  ],
  [
    'turn/followUp',
    [
      ['valid', { threadId: 't', input: [{ type: 'text', text: 'x' }] }, 'ok'],
      ['missing threadId', { input: [] }, first('/threadId', 'is required')],
      [
        'missing input',
        validThread,
        invalid('input must be a list of objects', [{ path: '/input', message: 'is required' }]),
      ],
    ],
  ],
  [
    'turn/interrupt',
    [
      ['valid', { threadId: 't', expectedTurnId: 'x', reason: 'stop' }, 'ok'],
      [
        'expectedTurnId number',
        { ...validThread, expectedTurnId: 1 },
        first('/expectedTurnId', 'must be a string'),
      ],
      ['reason null', { ...validThread, reason: null }, first('/reason', 'must be a string')],
    ],
  ],
  [
    'approval/resolve',
    [
      [
        'valid',
        { threadId: 't', turnId: 'u', requestId: 'r', decision: 'allow_session', reason: 'ok', metadata: {} },
        'ok',
      ],
      [
        'everything missing, in row order',
        {},
        invalid('Invalid params: /threadId is required', [
          { path: '/threadId', message: 'is required' },
          { path: '/turnId', message: 'is required' },
          { path: '/requestId', message: 'is required' },
          { path: '/decision', message: 'is required' },
        ]),
      ],
      [
        'decision case-sensitive',
        { threadId: 't', turnId: 'u', requestId: 'r', decision: 'Allow' },
        first('/decision', 'must be one of: allow, allow_session, deny, timeout'),
      ],
      [
        'decision not a string',
        { threadId: 't', turnId: 'u', requestId: 'r', decision: 1 },
        first('/decision', 'must be one of: allow, allow_session, deny, timeout'),
      ],
      [
        'reason number',
        { threadId: 't', turnId: 'u', requestId: 'r', decision: 'deny', reason: 1 },
        first('/reason', 'must be a string'),
      ],
      [
        'metadata string',
        { threadId: 't', turnId: 'u', requestId: 'r', decision: 'deny', metadata: 'x' },
        first('/metadata', 'must be an object'),
      ],
    ],
  ],
  [
    'model/list',
    [
      ['empty', {}, 'ok'],
      ['valid', { agentKey: 'a', provider: 'p' }, 'ok'],
      ['agentKey number', { agentKey: 1 }, first('/agentKey', 'must be a string')],
      ['provider null', { provider: null }, first('/provider', 'must be a string')],
    ],
  ],
])('%s params table', (method, rows) => {
  it.each(rows)('%s', (_name, params, expected) => {
    const outcome = run(method, params);
    if (expected === 'ok') expect(outcome).toHaveProperty('ok');
    else expect(outcome).toEqual(expected);
  });
});

describe('validated params', () => {
  it('are the DTO instance with the given members; absent ones are undefined', () => {
    const spec = findClientRequest('thread/start')!;
    const value = validateParams(spec, { cwd: null, extra: 1 }) as Record<string, unknown>;
    expect(value.constructor.name).toBe('ThreadStartParamsDto');
    expect(value.cwd).toBeNull();
    expect(value.agentKey).toBeUndefined();
  });

  it('do not coerce types', () => {
    expect(run('thread/read', { threadId: 't', limit: '3' })).toMatchObject({ code: -32602 });
  });

  it('for empty params are a fresh DTO instance on every call, and required members are reported every time', () => {
    const spec = findClientRequest('model/list')!;
    const one = validateParams(spec, {}) as Record<string, unknown>;
    one.cursor = 'changed by a handler';
    const two = validateParams(spec, {}) as Record<string, unknown>;
    expect(two).not.toBe(one);
    expect(two.constructor.name).toBe('ModelListParamsDto');
    expect(two.cursor).toBeUndefined();
    for (let call = 0; call < 3; call += 1) {
      expect(run('thread/read', {})).toEqual(first('/threadId', 'is required'));
    }
  });

  it('never let __proto__ reach the DTO prototype', () => {
    const params = JSON.parse('{"__proto__":{"threadId":"injected"}}') as unknown;
    expect(run('thread/archive', params)).toEqual(first('/threadId', 'is required'));
  });
});

describe('arbitrary JSON members round-trip exactly (issue 12 item 5)', () => {
  const HOSTILE =
    '{"constructor":{"constructor":1},"toString":"t","valueOf":2,"hasOwnProperty":null,' +
    '"__proto__":{"polluted":true},"deep":[{"constructor":{"prototype":{"x":1}},"toString":[]}]}';

  it.each(['thread/start', 'turn/start'])(
    'keeps every key of %s metadata, nested ones included',
    (method) => {
      const metadata = JSON.parse(HOSTILE) as Record<string, unknown>;
      const params = { threadId: 't', input: [], metadata };
      const outcome = run(method, params) as { ok: Record<string, unknown> };
      expect(JSON.stringify(outcome.ok.metadata)).toBe(HOSTILE);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it('keeps every key of turn/start input items', () => {
    const item = JSON.parse(`{"type":"text","text":"hi","extra":${HOSTILE}}`) as Record<string, unknown>;
    const outcome = run('turn/start', { threadId: 't', input: [item] }) as { ok: { input: unknown[] } };
    expect(JSON.stringify(outcome.ok.input)).toBe(JSON.stringify([item]));
  });

  it('still validates params objects and nested DTOs that carry such keys themselves', () => {
    const params = JSON.parse('{"constructor":"x","toString":1,"clientInfo":{"name":"c","constructor":"y"}}');
    const outcome = run('initialize', params) as { ok: { clientInfo: Record<string, unknown> } };
    expect(outcome.ok.clientInfo.name).toBe('c');
    expect(outcome.ok.clientInfo.constructor.name).toBe('ClientInfoDto');
    expect(run('initialize', { constructor: 1, clientInfo: { constructor: 2 } })).toEqual(
      invalid('clientInfo.name is required', [{ path: '/clientInfo/name', message: 'is required' }]),
    );
  });
});

describe('invalidParamsMessage (§3.0 message rules)', () => {
  it.each<[Issue[], string]>([
    [[{ path: '/threadId', message: 'is required' }], 'Invalid params: /threadId is required'],
    [[{ path: '', message: 'must be an object' }], 'Invalid params: params must be an object'],
    [[{ path: '/input', message: 'is required' }], 'input must be a list of objects'],
    [[{ path: '/input/4', message: 'must be an object' }], 'input must be a list of objects'],
    [[{ path: '/clientInfo/name', message: 'is required' }], 'clientInfo.name is required'],
    [[{ path: '/clientInfo/name', message: 'must not be blank' }], 'clientInfo.name is required'],
    [
      [{ path: '/clientInfo/name', message: 'must be a string' }],
      'Invalid params: /clientInfo/name must be a string',
    ],
    [[{ path: '/cursor', message: 'is invalid' }], 'Invalid params: /cursor is invalid'],
  ])('%j → %s', (errors, message) => {
    expect(invalidParamsMessage(errors)).toBe(message);
  });
});
