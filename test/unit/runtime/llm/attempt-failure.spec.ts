import {
  AttemptFailure,
  actionFor,
  httpErrorText,
  isPromptTooLong,
  parseRetryAfterMs,
  type AttemptFailureKind,
  type FailureAction,
} from '../../../../src/runtime/llm/attempt-failure';

describe('actionFor', () => {
  it.each<[AttemptFailureKind, number | null, FailureAction]>([
    ['http', 408, 'retry'],
    ['http', 429, 'retry'],
    ['http', 500, 'retry'],
    ['http', 503, 'retry'],
    ['http', 599, 'retry'],
    ['http', 400, 'abort'],
    ['http', 413, 'abort'],
    ['http', 422, 'abort'],
    ['http', 401, 'failover'],
    ['http', 403, 'failover'],
    ['http', 404, 'failover'],
    ['http', 409, 'failover'],
    ['http', 302, 'failover'],
    ['timeout', null, 'retry'],
    ['network', null, 'retry'],
    ['stream', null, 'retry'],
    ['malformed', null, 'failover'],
    ['stream', 429, 'retry'],
    ['stream', 400, 'abort'],
    ['stream', 401, 'failover'],
    ['request', null, 'abort'],
    ['cancelled', null, 'abort'],
  ])('%s %s → %s', (kind, status, action) => {
    expect(actionFor(new AttemptFailure('x', kind, status))).toBe(action);
  });
});

describe('isPromptTooLong', () => {
  it.each([
    ["This model's maximum context length is 8192 tokens", true],
    ['{"code":"context_length_exceeded"}', true],
    ['input exceeds the Context Length of the model', true],
    ['prompt is too long: 210000 tokens > 200000 maximum', true],
    ['error_code: prompt_too_long', true],
    ['HTTP 413: Request too large for model', true],
    ['Too many tokens in request', true],
    ['HTTP 500: boom', false],
    ['rate limit exceeded', false],
  ])('%s → %s', (text, expected) => {
    expect(isPromptTooLong(text)).toBe(expected);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each<[string | undefined, number | null]>([
    [undefined, null],
    ['3', 3000],
    [' 1.5 ', 1500],
    ['0', 0],
    ['Wed, 01 Jan 2025 00:00:10 GMT', 10000],
    ['Tue, 31 Dec 2024 23:59:00 GMT', 0],
    ['soon', null],
    ['-1', null],
  ])('%s → %s', (value, expected) => {
    expect(parseRetryAfterMs(value, now)).toBe(expected);
  });
});

describe('httpErrorText', () => {
  it.each([
    [500, '', 'HTTP 500'],
    [503, ' \n', 'HTTP 503'],
    [401, ' bad key\n', 'HTTP 401: bad key'],
    [502, 'x'.repeat(501), `HTTP 502: ${'x'.repeat(500)}`],
    [502, '😀'.repeat(501), `HTTP 502: ${'😀'.repeat(500)}`],
  ])('%s %j', (status, body, expected) => {
    expect(httpErrorText(status, body)).toBe(expected);
  });
});
