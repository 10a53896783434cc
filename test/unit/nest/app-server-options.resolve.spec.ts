import { resolveAppServerOptions } from '../../../src/nest/app-server-options.resolve';
import { DefaultAppServerHost } from '../../../src/core/host/default-app-server-host';
import type { AppServerHost } from '../../../src/core/host/app-server-host';
import type { Runner } from '../../../src/runtime/runner';

describe('resolveAppServerOptions', () => {
  it('applies the defaults of §10.4', () => {
    const resolved = resolveAppServerOptions({ store: { path: '/tmp/x.sqlite' } });
    expect(resolved).toEqual({
      runner: null,
      host: expect.any(DefaultAppServerHost),
      storeTarget: '/tmp/x.sqlite',
      approvalPolicy: 'on-request',
      approvalTimeoutMs: 30_000,
      maxQueuedRequests: 128,
      maxMessageBytes: 16_777_216,
      mcpServers: {},
      sandbox: null,
    });
  });

  it('keeps given values and a product host', () => {
    const host = {} as AppServerHost;
    const runner = {} as Runner;
    expect(
      resolveAppServerOptions({
        store: { path: ':memory:' },
        host,
        runner,
        approvalPolicy: 'never',
        approvalTimeoutMs: 5,
        maxQueuedRequests: 0,
        maxMessageBytes: 64,
        mcpServers: { fs: { command: 'mcp-fs' } },
      }),
    ).toEqual({
      runner,
      host,
      storeTarget: ':memory:',
      approvalPolicy: 'never',
      approvalTimeoutMs: 5,
      maxQueuedRequests: 0,
      maxMessageBytes: 64,
      mcpServers: { fs: { command: 'mcp-fs' } },
      sandbox: null,
    });
  });

  it.each([
    [{ maxMessageBytes: 0 }, 'AppServerModule option maxMessageBytes must be an integer >= 1'],
    [{ maxMessageBytes: 1.5 }, 'AppServerModule option maxMessageBytes must be an integer >= 1'],
    [{ maxQueuedRequests: -1 }, 'AppServerModule option maxQueuedRequests must be an integer >= 0'],
    [{ approvalTimeoutMs: Number.NaN }, 'AppServerModule option approvalTimeoutMs must be an integer >= 1'],
  ])('rejects %p', (options, message) => {
    expect(() => resolveAppServerOptions({ store: { path: ':memory:' }, ...options })).toThrow(message);
  });

  it.each([
    [
      undefined,
      'AppServerModule option store is required: { path } (a sqlite file or ":memory:"), { url } or { dataSource }',
    ],
    [{}, 'AppServerModule option store.path must be a non-empty string (a sqlite file or ":memory:")'],
    [
      { path: '' },
      'AppServerModule option store.path must be a non-empty string (a sqlite file or ":memory:")',
    ],
    [{ url: 'mysql://x' }, 'AppServerModule option store.url must be a postgres:// or postgresql:// URL'],
  ])('rejects store %p with a clear message (a JavaScript caller can pass anything)', (store, message) => {
    expect(() =>
      resolveAppServerOptions({ store } as unknown as Parameters<typeof resolveAppServerOptions>[0]),
    ).toThrow(message);
  });
});
