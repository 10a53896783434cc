/**
 * The protocol layer as a Nest module: the server core, the connection registry, the notifier,
 * and the `initialize` handlers. Global so every domain module can inject
 * `Notifier`, `ConnectionRegistry` and `AppServerCore` without importing this module.
 */
import { Global, Logger, Module } from '@nestjs/common';
import { sandboxCapability } from '../../core/sandbox/server-sandbox';
import { APP_SERVER_OPTIONS, type ResolvedAppServerOptions } from '../app-server-options';
import { AppServerCore } from '../../protocols/app-server-v1/app-server-core';
import { ConnectionRegistry } from '../../rpc/connection-registry';
import { InitializeHandlers } from '../../protocols/app-server-v1/handlers/initialize.handlers';
import { Notifier } from '../../protocols/app-server-v1/notifier';
import { ServerLifecycle } from '../../core/lifecycle/server-lifecycle';

@Global()
@Module({
  providers: [
    InitializeHandlers,
    ConnectionRegistry,
    Notifier,
    { provide: ServerLifecycle, useFactory: () => new ServerLifecycle() },
    {
      provide: AppServerCore,
      inject: [APP_SERVER_OPTIONS, ConnectionRegistry, ServerLifecycle],
      useFactory: (
        options: ResolvedAppServerOptions,
        connections: ConnectionRegistry,
        lifecycle: ServerLifecycle,
      ): AppServerCore =>
        new AppServerCore(
          {
            maxMessageBytes: options.maxMessageBytes,
            maxQueuedRequests: options.maxQueuedRequests,
            runtimeConfigured: options.runner !== null,
            sandbox: sandboxCapability(options.sandbox),
          },
          connections,
          new Logger('AppServer'),
          lifecycle,
        ),
    },
  ],
  exports: [AppServerCore, ConnectionRegistry, Notifier, ServerLifecycle],
})
export class ProtocolModule {}
