import { InitialSchema1780000000000 } from './1780000000000-initial-schema';
import { TurnOwnershipHardening1780000000001 } from './1780000000001-turn-ownership-hardening';
import { ThreadForkOrigin1780000001400 } from './1780000001400-thread-fork-origin';
import { ContextCompaction1780000001500 } from './1780000001500-context-compaction';
import { ThreadMcpServers1780000001600 } from './1780000001600-thread-mcp-servers';
import { SandboxModes1780000001700 } from './1780000001700-sandbox-modes';

/** Migrations in the order they must run; never `synchronize` (docs/spec/protocol.md §8.11). */
export const APP_SERVER_MIGRATIONS = [
  InitialSchema1780000000000,
  TurnOwnershipHardening1780000000001,
  ThreadForkOrigin1780000001400,
  ContextCompaction1780000001500,
  ThreadMcpServers1780000001600,
  SandboxModes1780000001700,
];
