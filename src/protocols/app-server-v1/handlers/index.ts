/** Every handler class of the v1 protocol; the Nest wiring collects their `@RpcMethod`s. */
import { ApprovalsHandlers } from './approvals.handlers';
import { InitializeHandlers } from './initialize.handlers';
import { McpServersHandlers } from './mcp-servers.handlers';
import { ModelsHandlers } from './models.handlers';
import { SchemaHandlers } from './schema.handlers';
import { ThreadsHandlers } from './threads.handlers';
import { TurnsHandlers } from './turns.handlers';

export const APP_SERVER_V1_HANDLERS = [
  InitializeHandlers,
  ThreadsHandlers,
  TurnsHandlers,
  ApprovalsHandlers,
  ModelsHandlers,
  SchemaHandlers,
  McpServersHandlers,
] as const;
