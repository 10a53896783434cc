import { InitialSchema1780000000000 } from './1780000000000-initial-schema';
import { ThreadForkOrigin1780000001400 } from './1780000001400-thread-fork-origin';

/** Migrations in the order they must run; never `synchronize` (protocol.md §8.11). */
export const APP_SERVER_MIGRATIONS = [InitialSchema1780000000000, ThreadForkOrigin1780000001400];
