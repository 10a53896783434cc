/**
 * The server → client half of the protocol's single source (docs/spec/protocol.md §11.1): every result,
 * notification params and data type by the name the registry uses for it.
 */
import * as dataTypes from '../../../core/model/data-types';
import * as notifications from './notifications';
import * as results from './results';
import type { Definition, Infer } from '../../../core/model/schema-dsl';
import type { CompletionReason as CompletionReasonValue } from '../../../runtime/events/types';

export * from '../../../core/model/schema-dsl';
export * from './schema-document';

const {
  ThreadStatus,
  TurnStatus,
  AppItemType,
  AppItemStatus,
  ApprovalDecision,
  CacheUsage,
  AggregateCacheUsage,
  TokenUsage,
  AppTokenUsageCycle,
  AppTokenUsage,
  AppThread,
  TurnResult,
  AppTurn,
  AppItem,
  AppModelInfo,
} = dataTypes;
// Typed by its own module: the declaration files would otherwise name the runtime's type through
// the package root, and every type that reads MESSAGE_DEFINITIONS (the client's) would load it all.
const CompletionReason: Definition<CompletionReasonValue> = dataTypes.CompletionReason;

/** Every named definition; keys equal the definitions' names (checked by method-definitions.spec.ts). */
export const MESSAGE_DEFINITIONS = {
  ThreadStatus,
  TurnStatus,
  AppItemType,
  AppItemStatus,
  ApprovalDecision,
  CompletionReason,
  CacheUsage,
  AggregateCacheUsage,
  TokenUsage,
  AppTokenUsageCycle,
  AppTokenUsage,
  AppThread,
  TurnResult,
  AppTurn,
  AppItem,
  AppModelInfo,
  // Every export of results.ts and notifications.ts is a definition exported under its own name, so a
  // new result or notification params type is listed by defining it there.
  ...results,
  ...notifications,
} as const;

export type MessageTypeName = keyof typeof MESSAGE_DEFINITIONS;

/** The TypeScript type of every definition, by name. */
export type MessageTypes = {
  [K in MessageTypeName]: Infer<(typeof MESSAGE_DEFINITIONS)[K]>;
};

export function findMessageDefinition(name: string): Definition<unknown> | undefined {
  return Object.prototype.hasOwnProperty.call(MESSAGE_DEFINITIONS, name)
    ? (MESSAGE_DEFINITIONS as Record<string, Definition<unknown>>)[name]
    : undefined;
}
