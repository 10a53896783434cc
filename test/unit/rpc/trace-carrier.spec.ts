/** The W3C trace context of a request's `params._meta` (docs/spec/observability.md §2). */
import { traceCarrierOf } from '../../../src/rpc/trace-carrier';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('traceCarrierOf', () => {
  it('takes traceparent and tracestate from params._meta', () => {
    expect(traceCarrierOf({ threadId: 't', _meta: { traceparent: TRACEPARENT, tracestate: 'a=b' } })).toEqual(
      {
        traceparent: TRACEPARENT,
        tracestate: 'a=b',
      },
    );
    expect(traceCarrierOf({ _meta: { traceparent: TRACEPARENT } })).toEqual({ traceparent: TRACEPARENT });
  });

  it.each([
    [undefined],
    [null],
    [[]],
    [{}],
    [{ _meta: 'x' }],
    [{ _meta: { traceparent: 42 } }],
    [{ _meta: { traceparent: TRACEPARENT.toUpperCase() } }],
    [{ _meta: { traceparent: `${TRACEPARENT}-extra` } }],
  ])('ignores %j', (params) => {
    expect(traceCarrierOf(params)).toBeUndefined();
  });

  it('drops an oversized tracestate but keeps the parent', () => {
    expect(traceCarrierOf({ _meta: { traceparent: TRACEPARENT, tracestate: 'x'.repeat(513) } })).toEqual({
      traceparent: TRACEPARENT,
    });
  });
});
