/**
 * embedding-guide.md "Wiring": AppServerModule.forRootAsync inside a product's Nest module, and
 * the server core that clients connect to.
 */
// #region module
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  AppServerCore,
  AppServerModule,
  Runner,
  type AppServerModuleOptions,
  type ModelProvider,
} from 'vv-agent-app-server';
import { TenantDirectory, TenantHost } from './tenant-host';

@Module({ providers: [TenantDirectory], exports: [TenantDirectory] })
export class TenantsModule {}

export interface ProductConfig {
  modelProvider: ModelProvider;
  /** A sqlite file (its directory is created) or ':memory:'. */
  storePath: string;
}

@Module({})
export class ProductModule {
  static forRoot(config: ProductConfig): DynamicModule {
    return {
      module: ProductModule,
      imports: [
        TenantsModule,
        AppServerModule.forRootAsync({
          imports: [TenantsModule],
          inject: [TenantDirectory],
          useFactory: (tenants: TenantDirectory): AppServerModuleOptions => ({
            runner: new Runner({ modelProvider: config.modelProvider }),
            host: new TenantHost(tenants),
            store: { path: config.storePath },
            approvalPolicy: 'on-request', // used when the host's run config sets none
            approvalTimeoutMs: 30_000, // likewise
            maxQueuedRequests: 128,
            maxMessageBytes: 16 * 1024 * 1024,
          }),
        }),
      ],
    };
  }
}
// #endregion module

// #region bootstrap
export interface ProductServer {
  app: INestApplicationContext;
  core: AppServerCore;
  tenants: TenantDirectory;
  close(): Promise<void>;
}

export async function startProductServer(config: ProductConfig): Promise<ProductServer> {
  // Any Nest application works (HTTP, hybrid, microservice); no transport strategy is needed.
  const app = await NestFactory.createApplicationContext(ProductModule.forRoot(config), {
    logger: ['error', 'warn'],
  });
  await app.init(); // the store is open by now: migrations and restart recovery ran
  const core = app.get(AppServerCore);
  return {
    app,
    core,
    tenants: app.get(TenantDirectory),
    close: async () => {
      await core.shutdown('signal'); // running turns end interrupted, pending approvals resolve
      await app.close();
    },
  };
}
// #endregion bootstrap
