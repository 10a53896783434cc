/**
 * Seeded JSON-RPC fuzz lines: valid requests of every client method, and mutations of them —
 * dropped/duplicated members, wrong types, huge and odd ids, unicode, truncated JSON, batches,
 * nested junk, invalid UTF-8, stray BOMs, trailing garbage, oversized lines. Each line carries a
 * label (which generator made it); the expected outcome comes from `judgeLine`, not from here.
 */
import type { SeededRandom } from './seeded-random';

export interface FuzzContext {
  /** A thread that exists on the server (so some requests reach real handlers). */
  threadId: string;
  /** The server's `--max-message-bytes`; a few lines exceed it. */
  maxMessageBytes: number;
}

export interface FuzzLine {
  bytes: Buffer;
  label: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const METHODS = [
  'initialize',
  'thread/start',
  'thread/resume',
  'thread/read',
  'thread/list',
  'thread/archive',
  'thread/unsubscribe',
  'turn/start',
  'turn/steer',
  'turn/followUp',
  'turn/interrupt',
  'approval/resolve',
  'model/list',
  'schema/export',
] as const;

const ODD_METHODS = [
  'initialized',
  'no/such/method',
  'MODEL/LIST',
  'model/list ',
  ' ',
  'thread/😀',
  'ⓜⓞⓓⓔⓛ',
  'a'.repeat(300),
];

const STRINGS = [
  '',
  ' ',
  'hello',
  'héllo wörld',
  '数据流',
  '🎉🚀👩‍👩‍👧',
  '\u202eevil rtl',
  '\u0000nul',
  'line\nbreak',
  'tab\tand "quotes" \\ back',
  '\ud800',
  '\udfff\ud800',
  'x'.repeat(2048),
  'thread_00000000000000000000000000000000',
  'approval_ffffffffffffffffffffffffffffffff',
  '__proto__',
  'constructor',
];

const NUMBERS = [
  0,
  -0,
  1,
  -1,
  1.5,
  1e21,
  -1e-7,
  9007199254740991,
  -9007199254740991,
  9007199254740992,
  2 ** 64,
  1e308,
];

/** Textual number forms JSON.stringify cannot produce (exponents, huge literals, -0, 1.0). */
const RAW_NUMBERS = [
  '1e400',
  '-1e400',
  '9007199254740993',
  '123456789012345678901234567890',
  '1.0',
  '-0',
  '1E2',
  '0.0000001',
];

function randomString(random: SeededRandom): string {
  if (random.chance(0.3)) {
    const length = random.int(1, 24);
    let text = '';
    for (let i = 0; i < length; i += 1)
      text += String.fromCodePoint(
        random.pick([random.int(32, 126), random.int(0xa0, 0x2fff), random.int(0x1f300, 0x1f6ff)]),
      );
    return text;
  }
  return random.pick(STRINGS);
}

function randomValue(random: SeededRandom, depth = 0): Json {
  const kind = random.int(0, depth > 4 ? 3 : 6);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random.chance(0.5);
    case 2:
      return random.pick(NUMBERS);
    case 3:
      return randomString(random);
    case 4:
      return Array.from({ length: random.int(0, 4) }, () => randomValue(random, depth + 1));
    default: {
      const object: JsonObject = {};
      for (let i = random.int(0, 4); i > 0; i -= 1)
        object[randomString(random)] = randomValue(random, depth + 1);
      return object;
    }
  }
}

/** Deep nesting: `[[[…]]]` or `{"a":{"a":…}}`. */
function nested(depth: number, useArrays: boolean): string {
  return useArrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

function validParams(random: SeededRandom, method: string, context: FuzzContext): Json | undefined {
  const threadId = random.chance(0.6) ? context.threadId : randomString(random);
  const input: Json = [{ type: 'text', text: randomString(random) }];
  switch (method) {
    case 'initialize':
      return { clientInfo: { name: 'fuzz' } };
    case 'thread/start':
      return random.pick<Json>([{}, { metadata: { k: randomValue(random) } }, { cwd: null, agentKey: '' }]);
    case 'thread/resume':
      return { threadId, subscribe: random.chance(0.5) };
    case 'thread/read':
      return random.chance(0.5)
        ? { threadId }
        : { threadId, limit: random.int(1, 5), afterItemId: randomString(random) };
    case 'thread/list':
      return random.pick<Json>([
        {},
        { limit: random.int(1, 500) },
        { archived: true },
        { cursor: randomString(random) },
      ]);
    case 'thread/archive':
    case 'thread/unsubscribe':
    case 'turn/interrupt':
      // The real thread is kept unarchived so later requests keep reaching handlers.
      return { threadId: method === 'thread/archive' ? randomString(random) : threadId };
    case 'turn/start':
    case 'turn/followUp':
      return { threadId, input };
    case 'turn/steer':
      return { threadId, input, expectedTurnId: randomString(random) };
    case 'approval/resolve':
      return {
        requestId: randomString(random),
        decision: random.pick(['allow', 'deny', 'timeout', 'maybe']),
      };
    case 'model/list':
      return random.pick<Json | undefined>([undefined, {}, { provider: 'x' }]);
    default:
      return undefined;
  }
}

function serialize(object: JsonObject): string {
  return JSON.stringify(object);
}

/** Replaces the serialized id with a raw numeric literal JSON.stringify cannot produce. */
function withRawId(object: JsonObject, raw: string): string {
  const { id: _id, ...rest } = object;
  const body = serialize(rest);
  return body === '{}' ? `{"id":${raw}}` : `{"id":${raw},${body.slice(1)}`;
}

const WRONG_TYPES: Json[] = [null, true, 1.5, [], {}, [1], { id: 1 }, '', 0];

export class FuzzCorpus {
  private counter = 0;

  constructor(
    private readonly random: SeededRandom,
    private readonly context: FuzzContext,
  ) {}

  /** A unique request id: integers and strings alternate. */
  private nextId(): string | number {
    this.counter += 1;
    return this.counter % 2 === 0 ? 1_000_000 + this.counter : `fz-${this.counter}`;
  }

  private validRequest(): JsonObject {
    const random = this.random;
    const method = random.chance(0.05) ? random.pick(ODD_METHODS) : random.pick(METHODS);
    const request: JsonObject = { jsonrpc: '2.0', id: this.nextId(), method };
    if (random.chance(0.1)) delete request.jsonrpc;
    const params = validParams(random, method, this.context);
    if (params !== undefined) request.params = params;
    return request;
  }

  next(): FuzzLine {
    const random = this.random;
    const generator = random.weighted<() => FuzzLine>([
      [20, () => this.line('valid', serialize(this.validRequest()))],
      [6, () => this.dropMember()],
      [5, () => this.duplicateMember()],
      [8, () => this.wrongType()],
      [5, () => this.oddId()],
      [5, () => this.unicode()],
      [8, () => this.truncated()],
      [4, () => this.batch()],
      [5, () => this.nestedJunk()],
      [4, () => this.extraMember()],
      [4, () => this.primitive()],
      [3, () => this.invalidUtf8()],
      [3, () => this.garbage()],
      [2, () => this.bomPrefixed()],
      [3, () => this.framingVariants()],
      [3, () => this.clientAnswer()],
      [3, () => this.notification()],
      [2, () => this.line('blank', random.pick(['', ' ', '\t', '  \t  ']))],
      [4, () => this.randomJunk()],
      [0.3, () => this.oversized()],
    ]);
    return generator();
  }

  private line(label: string, text: string | Buffer): FuzzLine {
    return { label, bytes: typeof text === 'string' ? Buffer.from(text, 'utf8') : text };
  }

  private dropMember(): FuzzLine {
    const request = this.validRequest();
    const key = this.random.pick(Object.keys(request));
    delete request[key];
    return this.line(`drop:${key}`, serialize(request));
  }

  /** The same key twice in the text: JSON.parse keeps the last one. */
  private duplicateMember(): FuzzLine {
    const request = this.validRequest();
    const key = this.random.pick(['id', 'method', 'jsonrpc', 'params']);
    const first = JSON.stringify(this.random.chance(0.5) ? randomValue(this.random) : (request[key] ?? 'x'));
    return this.line(`duplicate:${key}`, `{"${key}":${first},${serialize(request).slice(1)}`);
  }

  private wrongType(): FuzzLine {
    const request = this.validRequest();
    const key = this.random.pick(['id', 'method', 'jsonrpc', 'params', 'params']);
    const value =
      key === 'params' ? this.random.pick<Json>([...WRONG_TYPES, 'text', 42]) : this.random.pick(WRONG_TYPES);
    request[key] = value;
    if (
      key === 'params' &&
      request.params !== null &&
      typeof request.params === 'object' &&
      !Array.isArray(request.params)
    ) {
      // Wrong member types inside params instead.
      request.params = {
        threadId: this.random.pick(WRONG_TYPES),
        input: this.random.pick<Json>(['x', [1], [null], {}]),
        limit: this.random.pick<Json>([0, -1, 1.5, '5', 501]),
      };
    }
    return this.line(`wrong-type:${key}`, serialize(request));
  }

  private oddId(): FuzzLine {
    const request = this.validRequest();
    if (this.random.chance(0.5))
      return this.line('odd-id:raw', withRawId(request, this.random.pick(RAW_NUMBERS)));
    request.id = this.random.pick<Json>([
      9007199254740991 - this.random.int(0, 5),
      -9007199254740991,
      2 ** 53,
      1e308,
      'x'.repeat(this.random.int(1000, 5000)) + String(this.counter),
      `🆔-${this.counter}`,
      `\u0000${this.counter}`,
    ]);
    return this.line('odd-id', serialize(request));
  }

  private unicode(): FuzzLine {
    const request = this.validRequest();
    if (this.random.chance(0.3)) request.method = randomString(this.random);
    else
      request.params = {
        threadId: randomString(this.random),
        input: [{ type: 'text', text: randomString(this.random) }],
        metadata: { [randomString(this.random)]: randomString(this.random) },
      };
    return this.line('unicode', serialize(request));
  }

  private truncated(): FuzzLine {
    const text = serialize(this.validRequest());
    return this.line('truncated', text.slice(0, this.random.int(1, text.length - 1)));
  }

  private batch(): FuzzLine {
    const members = Array.from({ length: this.random.int(0, 3) }, () => this.validRequest());
    return this.line('batch', JSON.stringify(members));
  }

  private nestedJunk(): FuzzLine {
    const request = this.validRequest();
    const deep = this.random.chance(0.1) ? this.random.int(2_000, 5_000) : this.random.int(10, 200);
    const junk = nested(deep, this.random.chance(0.5));
    const base = serialize({ ...request, params: null });
    // Splice the deep value in as params (or inside params) without building it as an object.
    const text = this.random.chance(0.5)
      ? base.replace('"params":null', `"params":${junk}`)
      : base.replace('"params":null', `"params":{"threadId":"t","input":${junk},"metadata":${junk}}`);
    return this.line(`nested:${deep}`, text);
  }

  private extraMember(): FuzzLine {
    const request = this.validRequest();
    const key = this.random.pick(['result', 'error', 'extra', '__proto__', 'ID', 'Method', '']);
    const value = key === 'error' ? { code: -1, message: 'x' } : randomValue(this.random);
    const text = `${serialize(request).slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value)}}`;
    return this.line(`extra:${key}`, text);
  }

  private primitive(): FuzzLine {
    return this.line(
      'primitive',
      this.random.pick(['1', '"str"', 'null', 'true', 'false', '[]', '{}', '-0', '1e400', '""']),
    );
  }

  private invalidUtf8(): FuzzLine {
    const text = serialize(this.validRequest());
    const at = this.random.int(0, text.length);
    const bad = this.random.pick([
      [0xff],
      [0xc3],
      [0xe2, 0x82],
      [0xed, 0xa0, 0x80],
      [0xf8, 0x88, 0x80, 0x80, 0x80],
      [0xc0, 0xaf],
    ]);
    return this.line(
      'invalid-utf8',
      Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bad), Buffer.from(text.slice(at))]),
    );
  }

  private garbage(): FuzzLine {
    const text = serialize(this.validRequest());
    return this.line(
      'garbage',
      this.random.pick([`${text} x`, `${text}${text}`, `${text},`, `x${text}`, `${text}}`, `{${text}`]),
    );
  }

  /** A BOM in front of a line that is not the first of the stream is not ignored (§1.1). */
  private bomPrefixed(): FuzzLine {
    return this.line('bom', `\ufeff${serialize(this.validRequest())}`);
  }

  /** Still valid: CRLF, surrounding whitespace, pretty-printed on one line. */
  private framingVariants(): FuzzLine {
    const request = this.validRequest();
    return this.line(
      'framing',
      this.random.pick([
        `${serialize(request)}\r`,
        `  ${serialize(request)}\t`,
        JSON.stringify(request, null, 1).replace(/\n/g, ' '),
      ]),
    );
  }

  /** Responses and error responses nobody asked for: ignored silently (§1.7). */
  private clientAnswer(): FuzzLine {
    const id = this.random.pick<Json>([`approval_${'0'.repeat(32)}`, 7, null, 'x']);
    return this.line(
      'client-answer',
      this.random.chance(0.5)
        ? JSON.stringify({ jsonrpc: '2.0', id, result: randomValue(this.random) })
        : JSON.stringify({
            jsonrpc: '2.0',
            id,
            error: { code: -32000, message: 'no', data: randomValue(this.random) },
          }),
    );
  }

  private notification(): FuzzLine {
    const method = this.random.pick(['initialized', 'initialize', 'thread/start', 'turn/start', 'x']);
    return this.line(
      'notification',
      JSON.stringify({ jsonrpc: '2.0', method, params: randomValue(this.random) }),
    );
  }

  private randomJunk(): FuzzLine {
    return this.line('junk', JSON.stringify(randomValue(this.random)));
  }

  private oversized(): FuzzLine {
    const request = this.validRequest();
    request.params = { padding: 'p'.repeat(this.context.maxMessageBytes + this.random.int(1, 4096)) };
    return this.line('oversized', serialize(request));
  }
}
