/**
 * The stdio protocol core end to end (docs/spec/protocol.md §1, §2, §3.0, §3.1, §3.14, §6, §7.4): the real CLI
 * `node dist/main.js app-server --listen stdio …` driven over JSONL. Build first (`npm run build`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST_MAIN, JsonlChild, type JsonMessage } from '../helpers/jsonl-child';
import { assertValidServerMessage } from '../helpers/schema-validation';

jest.setTimeout(30_000);

const INITIALIZE_RESULT = {
  userAgent: 'vv-agent-app-server',
  protocolVersion: 'v1',
  capabilities: {
    modelList: true,
    threadLifecycle: true,
    notificationOptOut: true,
    schemaExport: true,
    approvalResolve: true,
    // docs/spec/sandbox.md §4: bwrap works on the test machine; the default mode.
    sandbox: { available: true, maxMode: 'workspace-write' },
  },
};

const SETTINGS = {
  VERSION: '2',
  endpoints: [{ id: 'local', api_base: 'http://127.0.0.1:9/v1', api_key: 'sk-test' }],
  backends: { local: { models: { m1: { id: 'm1', endpoints: ['local'], function_call_available: true } } } },
};

let home: string;
const children: JsonlChild[] = [];

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'vv-protocol-e2e-'));
  writeFileSync(join(home, 'settings.json'), JSON.stringify(SETTINGS));
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.kill('SIGKILL');
    await child.waitExit();
    // Whatever the input, everything the server wrote must be a message the committed schemas describe.
    for (const message of child.received) assertValidServerMessage(message);
  }
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

function startServer(extraArgs: string[] = [], extraEnv: NodeJS.ProcessEnv = {}): JsonlChild {
  const child = JsonlChild.spawnNode(
    [
      DIST_MAIN,
      'app-server',
      '--listen',
      'stdio',
      '--settings',
      join(home, 'settings.json'),
      '--backend',
      'local',
      '--model',
      'm1',
      '--store',
      ':memory:',
      ...extraArgs,
    ],
    { cwd: home, env: { ...process.env, VV_AGENT_HOME: home, ...extraEnv } },
  );
  children.push(child);
  return child;
}

async function initialize(child: JsonlChild, capabilities?: unknown): Promise<JsonMessage> {
  const params =
    capabilities === undefined
      ? { clientInfo: { name: 'e2e' } }
      : { clientInfo: { name: 'e2e' }, capabilities };
  return child.request('init', 'initialize', params);
}

const errorOf = (id: unknown, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

describe('stdio handshake', () => {
  it('answers initialize with the exact result; initialized is never answered', async () => {
    const child = startServer();
    child.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        clientInfo: { name: 'v-claw', version: '0.1.0' },
        capabilities: { experimentalApi: false, optOutNotificationMethods: [] },
      },
    });
    child.send({ jsonrpc: '2.0', method: 'initialized' });
    expect(await child.next()).toEqual({ jsonrpc: '2.0', id: 1, result: INITIALIZE_RESULT });
    expect(await child.collectAll()).toEqual([]);
  });

  it('gates requests before initialize (-32010, unknown methods too) and rejects a second initialize (-32011)', async () => {
    const child = startServer();
    expect(await child.request(1, 'model/list')).toEqual(errorOf(1, -32010, 'Not initialized'));
    expect(await child.request(2, 'no/such/method')).toEqual(errorOf(2, -32010, 'Not initialized'));
    expect(await initialize(child)).toEqual({ jsonrpc: '2.0', id: 'init', result: INITIALIZE_RESULT });
    expect(await child.request(3, 'initialize', { clientInfo: 'not even valid' })).toEqual(
      errorOf(3, -32011, 'Already initialized'),
    );
  });

  it('leaves the connection uninitialized after a failed initialize (-32602 texts)', async () => {
    const child = startServer();
    expect(await child.request(1, 'initialize')).toEqual(errorOf(1, -32602, 'Missing params'));
    expect(await child.request(2, 'initialize', null)).toEqual(errorOf(2, -32602, 'Missing params'));
    expect(await child.request(3, 'initialize', { clientInfo: { name: '  ' } })).toEqual(
      errorOf(3, -32602, 'clientInfo.name is required', {
        errors: [{ path: '/clientInfo/name', message: 'must not be blank' }],
      }),
    );
    expect(await child.request(4, 'initialize', { clientInfo: { name: 'x' }, capabilities: null })).toEqual(
      errorOf(4, -32602, 'Invalid params: /capabilities must be an object', {
        errors: [{ path: '/capabilities', message: 'must be an object' }],
      }),
    );
    expect(await child.request(5, 'initialize', [])).toEqual(
      errorOf(5, -32602, 'Invalid params: params must be an object', {
        errors: [{ path: '', message: 'must be an object' }],
      }),
    );
    expect(await child.request(6, 'model/list')).toEqual(errorOf(6, -32010, 'Not initialized'));
    expect(await initialize(child)).toMatchObject({ result: INITIALIZE_RESULT });
  });
});

describe('stdio framing and envelope errors', () => {
  it('answers -32700 (id null) for invalid JSON and invalid UTF-8, then keeps serving', async () => {
    const child = startServer();
    child.sendLine('this is not json');
    child.sendLine('{"id":1,"method":"model/list"} trailing');
    child.sendRaw(
      Buffer.concat([Buffer.from('{"id":2,"method":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]),
    );
    child.sendLine('');
    child.sendLine('   ');
    const parseError = errorOf(null, -32700, 'Parse error');
    expect([await child.next(), await child.next(), await child.next()]).toEqual([
      parseError,
      parseError,
      parseError,
    ]);
    expect(await initialize(child)).toMatchObject({ result: INITIALIZE_RESULT });
    expect(child.takeUnread()).toEqual([]);
  });

  const INVALID_REQUESTS: Array<[string, string, string | number | null]> = [
    ['a wrong jsonrpc version (spec example)', '{"jsonrpc":"1.0","id":7,"method":"model/list"}', 7],
    ['an empty method', '{"id":"s","method":""}', 's'],
    ['an unknown top-level member', '{"id":8,"method":"model/list","extra":true}', 8],
    ['a null id', '{"id":null,"method":"model/list"}', null],
    ['a fractional id', '{"id":1.5,"method":"model/list"}', null],
    ['an unsafe integer id', '{"id":9007199254740992,"method":"model/list"}', null],
    ['a boolean id', '{"id":true,"method":"model/list"}', null],
    ['a primitive', '42', null],
    ['an empty batch', '[]', null],
  ];

  it('answers -32600 with the id echo rule, in any state, for every malformed envelope', async () => {
    const child = startServer();
    for (const [, line] of INVALID_REQUESTS) child.sendLine(line);
    const answers: JsonMessage[] = [];
    for (let i = 0; i < INVALID_REQUESTS.length; i += 1) answers.push(await child.next());
    expect(answers).toEqual(INVALID_REQUESTS.map(([, , id]) => errorOf(id, -32600, 'Invalid Request')));
  });

  it('answers a batch with exactly one -32600 (id null)', async () => {
    const child = startServer();
    child.sendLine(
      '[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"x"}}},{"id":2,"method":"model/list"}]',
    );
    expect(await child.next()).toEqual(errorOf(null, -32600, 'Invalid Request'));
    expect(await initialize(child)).toMatchObject({ result: INITIALIZE_RESULT });
    expect(child.takeUnread()).toEqual([]);
  });

  it('handles CRLF, a BOM at stream start and a final line without newline at EOF', async () => {
    const child = startServer();
    child.sendRaw(Buffer.from([0xef, 0xbb, 0xbf]));
    child.sendRaw('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"x"}}}\r\n');
    child.sendRaw('{"id":2,"method":"model/list"}');
    const rest = await child.collectAll();
    expect(rest.map((m) => m.id)).toEqual([1, 2]);
    expect(rest[1]).toHaveProperty('result.models');
  });

  it('answers input_too_large for a line over --max-message-bytes and continues with the next line', async () => {
    const child = startServer(['--max-message-bytes', '64']);
    child.sendLine(
      JSON.stringify({ id: 1, method: 'initialize', params: { clientInfo: { name: 'x'.repeat(200) } } }),
    );
    child.sendLine('{"id":2,"method":"model/list"}');
    expect(await child.next()).toEqual(
      errorOf(null, -32600, 'Invalid Request', { reason: 'input_too_large', limitBytes: 64 }),
    );
    expect(await child.next()).toEqual(errorOf(2, -32010, 'Not initialized'));
  });
});

describe('stdio methods', () => {
  it('answers -32601 with data.method for unknown methods and for `initialized` sent with an id', async () => {
    const child = startServer();
    await initialize(child);
    expect(await child.request(1, 'no/such')).toEqual(
      errorOf(1, -32601, 'Method not found: no/such', { method: 'no/such' }),
    );
    expect(await child.request(2, 'initialized')).toEqual(
      errorOf(2, -32601, 'Method not found: initialized', { method: 'initialized' }),
    );
    expect(await child.request(3, 'turn/resume', {})).toEqual(
      errorOf(3, -32601, 'Method not found: turn/resume', { method: 'turn/resume' }),
    );
  });

  it('returns the one-model catalog from model/list and validates its params', async () => {
    const child = startServer();
    await initialize(child);
    expect(await child.request(1, 'model/list')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        models: [
          {
            id: 'm1',
            provider: 'local',
            displayName: 'm1',
            supportsTools: true,
            metadata: { requestedModel: 'm1' },
          },
        ],
      },
    });
    expect(await child.request('s', 'model/list', { provider: 1, agentKey: null })).toEqual(
      errorOf('s', -32602, 'Invalid params: /agentKey must be a string', {
        errors: [
          { path: '/agentKey', message: 'must be a string' },
          { path: '/provider', message: 'must be a string' },
        ],
      }),
    );
    expect(await child.request(2, 'model/list', 'x')).toEqual(
      errorOf(2, -32602, 'Invalid params: params must be an object', {
        errors: [{ path: '', message: 'must be an object' }],
      }),
    );
  });

  it('answers requests in arrival order when pipelined, echoing each id with its JSON type', async () => {
    const child = startServer();
    child.send({ id: 'a', method: 'initialize', params: { clientInfo: { name: 'x' } } });
    for (const id of [1, '1', 2, 'b', 0]) child.send({ id, method: 'model/list' });
    const messages = await child.collectAll();
    expect(messages.map((m) => m.id)).toEqual(['a', 1, '1', 2, 'b', 0]);
  });

  it('suppresses opted-out notifications for the connection (thread/started)', async () => {
    const plain = startServer();
    await initialize(plain);
    const started = await plain.request(1, 'thread/start', {});
    expect(started).toHaveProperty('result.threadId');
    expect(await plain.next()).toMatchObject({ method: 'thread/started' });

    const optedOut = startServer();
    await initialize(optedOut, { optOutNotificationMethods: ['thread/started'] });
    expect(await optedOut.request(1, 'thread/start', {})).toHaveProperty('result.threadId');
    // thread/started would precede the next response (§7.5): the next message is that response.
    expect(await optedOut.request(2, 'model/list')).toHaveProperty('result.models');
    expect(optedOut.takeUnread()).toEqual([]);
    expect(optedOut.received.some((m) => m.method === 'thread/started')).toBe(false);
  });
});

describe('stdio shutdown and stdout purity', () => {
  it('exits 0 on stdin EOF after answering every line already sent', async () => {
    const child = startServer();
    child.send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'x' } } });
    child.send({ id: 2, method: 'model/list' });
    const rest = await child.collectAll();
    expect(rest.map((m) => m.id)).toEqual([1, 2]);
    expect(await child.waitExit()).toEqual({ code: 0, signal: null });
  });

  it('exits 0 on SIGTERM', async () => {
    const child = startServer();
    await initialize(child);
    child.kill('SIGTERM');
    expect(await child.waitExit()).toEqual({ code: 0, signal: null });
  });

  it('exits 0 on SIGINT', async () => {
    const child = startServer();
    await initialize(child);
    child.kill('SIGINT');
    expect(await child.waitExit()).toEqual({ code: 0, signal: null });
  });

  it('writes only JSON-RPC messages on stdout while logging to stderr', async () => {
    // The most verbose log level makes Nest, the store and the dispatcher as noisy as they get.
    const child = startServer([], { VV_AGENT_LOG_LEVEL: 'verbose' });
    child.sendLine('garbage');
    child.send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'x' } } });
    child.send({ id: 2, method: 'model/list' });
    child.send({ id: 3, method: 'nope' });
    await child.collectAll();
    expect(child.invalidLines).toEqual([]);
    expect(child.received).toHaveLength(4);
    for (const message of child.received) {
      expect(message.jsonrpc).toBe('2.0');
      expect('result' in message || 'error' in message || 'method' in message).toBe(true);
    }
    // The server's own Nest logger reaches stderr (buffered during bootstrap, flushed once listening).
    expect(child.stderr).toMatch(/Nest microservice successfully started/);
  });
});
