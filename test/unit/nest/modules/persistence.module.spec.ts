import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { APP_SERVER_OPTIONS, type ResolvedAppServerOptions } from '../../../../src/nest/app-server-options';
import {
  AppServerStore,
  TypeOrmAppServerStore,
  ConversationRepository,
  ItemRepository,
  ThreadRepository,
  TurnRepository,
} from '../../../../src/persistence/sqlite';
import { PersistenceModule } from '../../../../src/nest/modules/persistence.module';
import { makeTempDir, type TempDir } from '../../persistence/store-test-support';

function optionsModule(storePath: string) {
  @Global()
  @Module({
    providers: [
      {
        provide: APP_SERVER_OPTIONS,
        useValue: { storeTarget: storePath } as Partial<ResolvedAppServerOptions>,
      },
    ],
    exports: [APP_SERVER_OPTIONS],
  })
  class TestOptionsModule {}
  return TestOptionsModule;
}

describe('PersistenceModule', () => {
  let dir: TempDir;

  beforeEach(() => {
    dir = makeTempDir();
  });

  afterEach(() => dir.remove());

  it('opens the store at options.storeTarget, exposes the repositories and closes the store on app close', async () => {
    const path = dir.file('state/app-server.sqlite');
    const moduleRef = await Test.createTestingModule({
      imports: [optionsModule(path), PersistenceModule],
    }).compile();
    const app = await moduleRef.init();

    const store = app.get(TypeOrmAppServerStore);
    expect(store.path).toBe(path);
    expect(store.isOpen).toBe(true);
    expect(app.get(ThreadRepository)).toBe(store.threads);
    expect(app.get(TurnRepository)).toBe(store.turns);
    expect(app.get(ItemRepository)).toBe(store.items);
    expect(app.get(ConversationRepository)).toBe(store.conversations);
    await app
      .get(ThreadRepository)
      .create({ threadId: 'thread_n', agentKey: 'default', cwd: null, metadata: {}, now: 1 });

    await app.close();
    expect(store.isOpen).toBe(false);

    const reopened = await AppServerStore.open(path);
    try {
      expect(await reopened.threads.get('thread_n')).not.toBeNull();
    } finally {
      await reopened.close();
    }
  });
});
