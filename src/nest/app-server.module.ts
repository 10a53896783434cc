/**
 * `AppServerModule.forRoot(options)` / `forRootAsync({ imports, inject, useFactory })` (protocol.md
 * §10.4). Binds the resolved options under APP_SERVER_OPTIONS and the host under APP_SERVER_HOST —
 * both global, so every domain module can inject them — and imports the protocol layer and the
 * domain modules. Transports (stdio, in-process) are Nest microservice strategies around this module.
 */
import {
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type BeforeApplicationShutdown,
  type OnModuleInit,
  type FactoryProvider,
  type ModuleMetadata,
  type Provider,
} from '@nestjs/common';
import {
  APP_SERVER_OPTIONS,
  type AppServerModuleOptions,
  type ResolvedAppServerOptions,
} from './app-server-options';
import { resolveAppServerOptions } from './app-server-options.resolve';
import { ModuleRef } from '@nestjs/core';
import { APP_SERVER_HOST, type AppServerHost } from '../core/host/app-server-host';
import { ApprovalsModule } from './modules/approvals.module';
import { ModelsModule } from './modules/models.module';
import { PersistenceModule } from './modules/persistence.module';
import { ProtocolModule } from './modules/protocol.module';
import { ThreadsModule } from './modules/threads.module';
import { TurnsModule } from './modules/turns.module';
import { SchemaModule } from './modules/schema.module';
import { McpModule } from './modules/mcp.module';
import { AppServerCore } from '../protocols/app-server-v1/app-server-core';
import { APP_SERVER_V1_HANDLERS } from '../protocols/app-server-v1/handlers';
import { collectHandlers } from '../protocols/app-server-v1/handlers/rpc-method';
import { reapOrphanedCommands } from '../runtime/tools/builtins/orphaned-commands';

/**
 * The domain modules, each a set of services and `@RpcMethod` handler classes. Persistence, threads, turns,
 * approvals and schema/export are added here by their owners.
 */
const DOMAIN_MODULES: NonNullable<ModuleMetadata['imports']> = [
  ModelsModule,
  SchemaModule,
  PersistenceModule,
  ThreadsModule,
  TurnsModule,
  ApprovalsModule,
  McpModule,
];

export interface AppServerModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  useFactory: (...args: never[]) => AppServerModuleOptions | Promise<AppServerModuleOptions>;
}

/** Raw options of forRootAsync, before defaults. */
const APP_SERVER_MODULE_OPTIONS = Symbol('APP_SERVER_MODULE_OPTIONS');

/** Binds the configured host; a host class is built by Nest with its dependencies injected. */
const hostProvider: Provider = {
  provide: APP_SERVER_HOST,
  inject: [APP_SERVER_OPTIONS, ModuleRef],
  useFactory: (
    options: ResolvedAppServerOptions,
    moduleRef: ModuleRef,
  ): AppServerHost | Promise<AppServerHost> =>
    typeof options.host === 'function' ? moduleRef.create(options.host) : options.host,
};

@Module({})
export class AppServerModule implements OnModuleInit, BeforeApplicationShutdown {
  constructor(@Inject(ModuleRef) private readonly moduleRef: ModuleRef) {}

  /**
   * Installs the v1 handler table in the server core. Done here, not by a transport strategy, so
   * the module works in any Nest application: HTTP, hybrid, microservice or standalone context.
   */
  onModuleInit(): void {
    const instances = APP_SERVER_V1_HANDLERS.map((handlers) =>
      this.moduleRef.get<object>(handlers, { strict: false }),
    );
    const table = collectHandlers(instances);
    this.moduleRef
      .get(AppServerCore, { strict: false })
      .setHandlerLookup((method) => table.get(method) ?? null);
    // Shell commands a killed predecessor left running are stopped (in the background: the anchors
    // of this server name a live owner, so its own commands are never touched).
    void reapOrphanedCommands()
      .then((reaped) => {
        if (reaped > 0)
          new Logger('AppServer').warn(`stopped the shell commands of ${reaped} dead server run(s)`);
      })
      .catch(() => undefined);
  }

  /**
   * Nest's shutdown (`app.close()`, or a signal after `app.enableShutdownHooks()`) runs the §1.9
   * sequence before any provider is torn down: pending approvals resolve, running turns end
   * `interrupted` and are stored while the store is still open. Idempotent with a transport's own
   * shutdown (stdio EOF) that got there first.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.moduleRef.get(AppServerCore, { strict: false }).shutdown('signal');
  }

  static forRoot(options: AppServerModuleOptions): DynamicModule {
    return AppServerModule.build(
      [],
      [{ provide: APP_SERVER_OPTIONS, useFactory: () => resolveAppServerOptions(options) }],
    );
  }

  static forRootAsync(options: AppServerModuleAsyncOptions): DynamicModule {
    return AppServerModule.build(options.imports ?? [], [
      {
        provide: APP_SERVER_MODULE_OPTIONS,
        inject: options.inject ?? [],
        useFactory: options.useFactory as (...args: unknown[]) => Promise<AppServerModuleOptions>,
      },
      {
        provide: APP_SERVER_OPTIONS,
        inject: [APP_SERVER_MODULE_OPTIONS],
        useFactory: (raw: AppServerModuleOptions) => resolveAppServerOptions(raw),
      },
    ]);
  }

  private static build(
    imports: NonNullable<ModuleMetadata['imports']>,
    optionProviders: Provider[],
  ): DynamicModule {
    return {
      module: AppServerModule,
      global: true,
      imports: [...imports, ProtocolModule, ...DOMAIN_MODULES],
      providers: [...optionProviders, hostProvider],
      exports: [APP_SERVER_OPTIONS, APP_SERVER_HOST],
    };
  }
}
