/**
 * The protocol layer as a Nest module: the server core, the connection registry, the notifier,
 * `initialize`, and the error pass-through filter. Global so every domain module can inject
 * `Notifier`, `ConnectionRegistry` and `AppServerCore` without importing this module.
 */
import { Global, Logger, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { APP_SERVER_OPTIONS, type ResolvedAppServerOptions } from '../app-server-options';
import { AppServerCore } from '../../protocols/app-server-v1/app-server-core';
import { ConnectionRegistry } from '../../rpc/connection-registry';
import { InitializeController } from '../../protocols/app-server-v1/handlers/initialize.controller';
import { Notifier } from '../../protocols/app-server-v1/notifier';
import { RpcErrorPassthroughFilter } from '../../protocols/app-server-v1/rpc-error-passthrough.filter';

@Global()
@Module({
  controllers: [InitializeController],
  providers: [
    ConnectionRegistry,
    Notifier,
    {
      provide: AppServerCore,
      inject: [APP_SERVER_OPTIONS, ConnectionRegistry],
      useFactory: (options: ResolvedAppServerOptions, connections: ConnectionRegistry): AppServerCore =>
        new AppServerCore(
          {
            maxMessageBytes: options.maxMessageBytes,
            maxQueuedRequests: options.maxQueuedRequests,
            runtimeConfigured: options.runner !== null,
          },
          connections,
          new Logger('AppServer'),
        ),
    },
    { provide: APP_FILTER, useClass: RpcErrorPassthroughFilter },
  ],
  exports: [AppServerCore, ConnectionRegistry, Notifier],
})
export class ProtocolModule {}
