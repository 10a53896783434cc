import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { APP_SERVER_HOST, type AppServerHost } from '../../../src/core/host/app-server-host';
import { APP_SERVER_OPTIONS, type ResolvedAppServerOptions } from '../../../src/nest/app-server-options';
import { AppServerModule } from '../../../src/nest/app-server.module';
import { DefaultAppServerHost } from '../../../src/core/host/default-app-server-host';
import { startInProcessAppServer, type InProcessAppServer } from '../../../src/nest/in-process-app-server';
import { RpcError } from '../../../src/rpc/rpc-error';
import { NestFactory } from '@nestjs/core';
import { AppServerCore } from '../../../src/protocols/app-server-v1/app-server-core';
import { RecordingSink, SilentLogger, settle } from '../support/in-process-core';

const MODELS = [
  { id: 'm1', provider: 'local', displayName: 'M1', supportsTools: true, metadata: { requestedModel: 'm1' } },
];

async function clientOf(server: InProcessAppServer) {
  const sink = new RecordingSink();
  const connection = server.core.connect(sink);
  let nextId = 1;
  const call = async (method: string, params?: unknown) => {
    const id = nextId++;
    server.core.receiveLine(
      connection,
      JSON.stringify(params === undefined ? { id, method } : { id, method, params }),
    );
    for (let i = 0; i < 50 && !sink.messages.some((m) => m.id === id); i += 1) await settle(1);
    return sink.messages.find((m) => m.id === id);
  };
  return { sink, connection, call };
}

describe('AppServerModule in-process (Nest wiring)', () => {
  let server: InProcessAppServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('serves initialize (no runner → threadLifecycle false) and model/list through the host', async () => {
    server = await startInProcessAppServer(
      { store: { path: ':memory:' }, models: MODELS },
      new SilentLogger(),
    );
    const client = await clientOf(server);
    await expect(client.call('initialize', { clientInfo: { name: 't' } })).resolves.toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        userAgent: 'vv-agent-app-server',
        protocolVersion: 'v1',
        capabilities: {
          modelList: true,
          threadLifecycle: false,
          notificationOptOut: true,
          schemaExport: true,
          approvalResolve: true,
        },
      },
    });
    await expect(client.call('model/list')).resolves.toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { models: MODELS },
    });
    await expect(client.call('model/list', { provider: 7 })).resolves.toMatchObject({
      error: { code: -32602, message: 'Invalid params: /provider must be a string' },
    });
  });

  it('answers -32603 with the host message when listModels fails (errors are not masked by Nest)', async () => {
    const seen: unknown[] = [];
    const host: AppServerHost = {
      resolveAgent: () => Promise.reject(new Error('unused')),
      buildRunConfig: () => Promise.reject(new Error('unused')),
      listModels: (params) => {
        seen.push(params);
        return Promise.reject(new Error('catalog unavailable'));
      },
    };
    server = await startInProcessAppServer({ store: { path: ':memory:' }, host }, new SilentLogger());
    const client = await clientOf(server);
    await client.call('initialize', { clientInfo: { name: 't' } });
    await expect(client.call('model/list', { agentKey: 'a' })).resolves.toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32603, message: 'catalog unavailable' },
    });
    expect(seen).toEqual([{ agentKey: 'a' }]);
  });

  it('maps any host failure, an RpcError included, to -32603 with its message', async () => {
    const host = new DefaultAppServerHost();
    host.listModels = () => Promise.reject(new RpcError(-32020, 'Thread not found'));
    server = await startInProcessAppServer({ store: { path: ':memory:' }, host }, new SilentLogger());
    const client = await clientOf(server);
    await client.call('initialize', { clientInfo: { name: 't' } });
    await expect(client.call('model/list')).resolves.toMatchObject({
      error: { code: -32603, message: 'Thread not found' },
    });
  });

  it('gives each in-process client its own connection', async () => {
    server = await startInProcessAppServer({ store: { path: ':memory:' } }, new SilentLogger());
    const a = await clientOf(server);
    const b = await clientOf(server);
    await a.call('initialize', { clientInfo: { name: 'a' } });
    await expect(b.call('model/list')).resolves.toMatchObject({ error: { code: -32010 } });
    await expect(a.call('model/list')).resolves.toMatchObject({ result: { models: [] } });
    expect(a.connection.id).not.toBe(b.connection.id);
  });

  it('serves requests in a plain Nest application context, with no transport strategy', async () => {
    @Module({ imports: [AppServerModule.forRoot({ store: { path: ':memory:' }, models: MODELS })] })
    class ProductModule {}
    const app = await NestFactory.createApplicationContext(ProductModule, { logger: false });
    try {
      await app.init();
      const core = app.get(AppServerCore);
      const client = await clientOf({ core } as InProcessAppServer);
      await expect(client.call('initialize', { clientInfo: { name: 'ctx' } })).resolves.toMatchObject({
        result: { protocolVersion: 'v1' },
      });
      await expect(client.call('model/list')).resolves.toMatchObject({ result: { models: [{ id: 'm1' }] } });
    } finally {
      await app.get(AppServerCore).shutdown('signal');
      await app.close();
    }
  });

  it('forRootAsync resolves defaults from a factory with injected dependencies', async () => {
    @Injectable()
    class Settings {
      readonly bytes = 1234;
    }
    @Module({ providers: [Settings], exports: [Settings] })
    class SettingsModule {}

    const app = await NestFactory.createApplicationContext(
      AppServerModule.forRootAsync({
        imports: [SettingsModule],
        inject: [Settings],
        useFactory: (settings: Settings) => ({
          store: { path: ':memory:' },
          maxMessageBytes: settings.bytes,
        }),
      }),
      { logger: false, abortOnError: false },
    );
    try {
      const options = app.get<ResolvedAppServerOptions>(APP_SERVER_OPTIONS);
      expect(options).toMatchObject({
        runner: null,
        storeTarget: ':memory:',
        approvalPolicy: 'on-request',
        approvalTimeoutMs: 30_000,
        maxQueuedRequests: 128,
        maxMessageBytes: 1234,
      });
      expect(options.host).toBeInstanceOf(DefaultAppServerHost);
    } finally {
      await app.close();
    }
  });

  it('builds a host class with Nest dependency injection (the useClass override of §10.4)', async () => {
    @Injectable()
    class Catalog {
      readonly models = [{ id: 'tenant-model', supportsTools: false }];
    }
    @Module({ providers: [Catalog], exports: [Catalog] })
    class CatalogModule {}

    @Injectable()
    class ProductHost extends DefaultAppServerHost {
      constructor(private readonly catalog: Catalog) {
        super();
      }
      override async listModels() {
        return { models: this.catalog.models };
      }
    }

    const app = await NestFactory.createApplicationContext(
      AppServerModule.forRootAsync({
        imports: [CatalogModule],
        useFactory: () => ({ store: { path: ':memory:' }, host: ProductHost }),
      }),
      { logger: false, abortOnError: false },
    );
    try {
      const host = app.get<AppServerHost>(APP_SERVER_HOST);
      expect(host).toBeInstanceOf(ProductHost);
      await expect(host.listModels({})).resolves.toEqual({
        models: [{ id: 'tenant-model', supportsTools: false }],
      });
    } finally {
      await app.close();
    }
  });

  it('serves model/list from a host class passed to forRoot', async () => {
    @Injectable()
    class FixedCatalogHost extends DefaultAppServerHost {
      constructor() {
        super({ models: MODELS });
      }
    }
    server = await startInProcessAppServer(
      { store: { path: ':memory:' }, host: FixedCatalogHost },
      new SilentLogger(),
    );
    const client = await clientOf(server);
    await client.call('initialize', { clientInfo: { name: 't' } });
    await expect(client.call('model/list')).resolves.toMatchObject({ result: { models: MODELS } });
  });
});
