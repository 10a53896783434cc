import { Module } from '@nestjs/common';
import { PersistenceModule } from './persistence.module';
import { ThreadStateModule } from './thread-state.module';
import { ThreadsHandlers } from '../../protocols/app-server-v1/handlers/threads.handlers';
import { ThreadsService } from '../../core/threads/threads.service';
import { TurnOwnership } from '../../core/turns/turn-ownership';
import { ApprovalsModule } from './approvals.module';
import { SERVER_SANDBOX, type ServerSandbox } from '../../core/sandbox/server-sandbox';
import { APP_SERVER_OPTIONS, type ResolvedAppServerOptions } from '../app-server-options';

/** `thread/*` (docs/spec/protocol.md §3.3–§3.8). */
@Module({
  imports: [PersistenceModule, ThreadStateModule, ApprovalsModule],
  providers: [
    ThreadsHandlers,
    ThreadsService,
    TurnOwnership,
    {
      provide: SERVER_SANDBOX,
      inject: [APP_SERVER_OPTIONS],
      useFactory: (options: ResolvedAppServerOptions): ServerSandbox | null => options.sandbox,
    },
  ],
  exports: [ThreadsService],
})
export class ThreadsModule {}
