/**
 * `initialize` (docs/spec/protocol.md §3.1) and the `initialized` notification (§3.2). The dispatcher has
 * already answered `-32011` for a second `initialize` (checked before params) and validated params;
 * a failed `initialize` never reaches this handler, so the connection stays uninitialized.
 */
import { Inject, Injectable } from '@nestjs/common';
import { RpcMethod } from './rpc-method';
import { AppServerCore } from '../app-server-core';
import type { InitializeParamsDto } from '../dto';
import { RpcErrors } from '../errors';
import { initializeResult, type InitializeResponse } from '../initialize-result';
import { RpcContext } from '../rpc-context';

@Injectable()
export class InitializeHandlers {
  constructor(@Inject(AppServerCore) private readonly core: AppServerCore) {}

  @RpcMethod('initialize')
  initialize(params: InitializeParamsDto, context: RpcContext): InitializeResponse {
    const { state } = context.connection;
    if (state.initialized) throw RpcErrors.alreadyInitialized();
    const { clientInfo, capabilities } = params;
    state.clientInfo = withoutUndefined({
      name: clientInfo.name,
      title: clientInfo.title,
      version: clientInfo.version,
    });
    state.experimentalApi = capabilities?.experimentalApi ?? false;
    state.optOutNotificationMethods = new Set(capabilities?.optOutNotificationMethods ?? []);
    state.initialized = true;
    state.readyForNotifications = true;
    return initializeResult(this.core.runtimeConfigured, this.core.sandboxCapability);
  }

  /** Idempotent; the dispatcher only delivers it on an initialized connection. */
  @RpcMethod('initialized')
  initialized(_params: unknown, context: RpcContext): void {
    if (context.connection.state.initialized) context.connection.state.readyForNotifications = true;
  }
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}
