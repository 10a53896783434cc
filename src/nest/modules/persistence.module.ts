/**
 * Nest wiring of the store: opens `ResolvedAppServerOptions.storePath` at bootstrap (migrations and
 * restart recovery happen before the transport starts reading) and closes it at application
 * shutdown, after the other modules' shutdown work. `APP_SERVER_OPTIONS` must be provided by a
 * global module (AppServerModule.forRoot).
 */
import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_SERVER_OPTIONS, type ResolvedAppServerOptions } from '../app-server-options';
import { AppServerStore } from '../../persistence/sqlite/app-server-store';
import { THREAD_STORE } from '../../core/store/thread-store';
import { ConversationRepository } from '../../persistence/typeorm/conversation.repository';
import { ItemRepository } from '../../persistence/typeorm/item.repository';
import { ThreadRepository } from '../../persistence/typeorm/thread.repository';
import { TurnRepository } from '../../persistence/typeorm/turn.repository';

@Injectable()
export class StoreShutdown implements OnApplicationShutdown {
  constructor(@Inject(AppServerStore) private readonly store: AppServerStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

@Module({
  providers: [
    {
      provide: AppServerStore,
      useFactory: (options: ResolvedAppServerOptions) => AppServerStore.open(options.storePath),
      inject: [APP_SERVER_OPTIONS],
    },
    {
      provide: ThreadRepository,
      useFactory: (store: AppServerStore) => store.threads,
      inject: [AppServerStore],
    },
    { provide: TurnRepository, useFactory: (store: AppServerStore) => store.turns, inject: [AppServerStore] },
    { provide: ItemRepository, useFactory: (store: AppServerStore) => store.items, inject: [AppServerStore] },
    {
      provide: ConversationRepository,
      useFactory: (store: AppServerStore) => store.conversations,
      inject: [AppServerStore],
    },
    { provide: THREAD_STORE, useExisting: AppServerStore },
    StoreShutdown,
  ],
  exports: [
    AppServerStore,
    THREAD_STORE,
    ThreadRepository,
    TurnRepository,
    ItemRepository,
    ConversationRepository,
  ],
})
export class PersistenceModule {}
