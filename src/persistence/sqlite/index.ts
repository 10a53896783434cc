/** Public surface of the SQLite store (Nest-free; its Nest module lives in src/nest/modules). */
export { AppServerStore, type AppServerStoreOptions, type TurnFinish } from './app-server-store';
export { TypeOrmAppServerStore } from '../typeorm/app-server-store';
export { ConversationRepository } from '../typeorm/conversation.repository';
export {
  createStoreDataSource,
  DEFAULT_BUSY_TIMEOUT_MS,
  IN_MEMORY_STORE_PATH,
  isInMemoryStorePath,
  type StoreDataSourceOptions,
} from './data-source';
export { ItemRepository, type ItemReadQuery } from '../typeorm/item.repository';
export {
  completeReplay,
  overlayLiveVersions,
  selectReplayItems,
  type ItemReplayQuery,
  type StoredReplayWindow,
} from '../../core/store/item-replay';
export {
  currentRecoveryEnvironment,
  isProcessAlive,
  isRecoverable,
  RESTART_RECOVERY_ERROR,
  type RecoveredTurn,
  type RecoveryEnvironment,
} from '../typeorm/restart-recovery';
export { ownProcessToken, processStartToken } from '../../runtime/process-identity';
export { InvalidThreadCursorError, StoreError, ThreadHasActiveTurnError } from '../typeorm/store-errors';
export {
  toAppThread,
  type ItemVersion,
  type StoredThread,
  type TurnOwnership,
} from '../../core/store/records';
export type { StoredThreadSnapshot } from '../typeorm/thread-snapshot';
export {
  DEFAULT_THREAD_LIST_LIMIT,
  ThreadRepository,
  type NewThread,
  type ThreadListPage,
  type ThreadListQuery,
} from '../typeorm/thread.repository';
export { TurnRepository, type NewTurn, type TurnCompletion } from '../typeorm/turn.repository';
