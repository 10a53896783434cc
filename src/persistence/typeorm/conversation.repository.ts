/**
 * A thread's model history across turns (docs/spec/protocol.md §8.10), ordered by a per-thread `seq`. A
 * compaction (docs/spec/history.md §1) replaces it: the replaced rows stay, marked superseded by the
 * compacting turn (forks at earlier turns still read them), and only unmarked rows are the history.
 */
import { type EntityManager, IsNull } from 'typeorm';
import { runSql } from './sql-dialect';
import type { PromptSize } from '../../runtime/compaction/prompt-size-tracker';
import type { Message } from '../../runtime/messages';
import { ConversationMessageEntity, ThreadEntity } from './entities';
import type { StoreExecutor } from './store-executor';
import type { ConversationWrite, StoredConversation } from '../../core/store/records';
export type { ConversationWrite, StoredConversation };
import { parseJsonObject } from './stored-json';

const INSERT_CHUNK_ROWS = 200;

export class ConversationRepository {
  constructor(private readonly executor: StoreExecutor) {}

  /** Appends after the thread's last message, atomically. */
  append(threadId: string, turnId: string, messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return Promise.resolve();
    return this.executor.transaction((manager) => appendMessages(manager, threadId, turnId, messages));
  }

  /** The whole history in order (empty for a thread without finished turns). */
  load(threadId: string): Promise<Message[]> {
    return this.executor.run((manager) => loadMessages(manager, threadId));
  }

  /** The history and the thread's prompt-size figure, read together (RunConfig.promptSize). */
  loadForRun(threadId: string): Promise<StoredConversation> {
    return this.executor.run(async (manager) => {
      const messages = await loadMessages(manager, threadId);
      const thread = await manager
        .getRepository(ThreadEntity)
        .findOne({ where: { threadId }, select: { promptTokens: true, promptMessagesSince: true } });
      const promptTokens = thread?.promptTokens ?? null;
      const messagesSince = thread?.promptMessagesSince ?? null;
      return promptTokens === null || messagesSince === null
        ? { messages }
        : { messages, promptSize: { promptTokens, messagesSince } };
    });
  }
}

async function loadMessages(manager: EntityManager, threadId: string): Promise<Message[]> {
  const rows = await manager.getRepository(ConversationMessageEntity).find({
    where: { threadId, supersededByTurnId: IsNull() },
    order: { seq: 'ASC' },
  });
  return rows.map(
    (row) => parseJsonObject(row.messageJson, 'conversation_messages.message_json') as unknown as Message,
  );
}

/** Finalization's history write: append or replace, then the prompt-size figure. */
export async function writeConversation(
  manager: EntityManager,
  threadId: string,
  turnId: string,
  write: ConversationWrite,
): Promise<void> {
  if (write.compactedHistory !== undefined) {
    await replaceHistory(manager, threadId, turnId, write.compactedHistory);
  } else {
    await appendMessages(manager, threadId, turnId, write.messages);
  }
  await storePromptSize(manager, threadId, write.promptSize);
}

/**
 * docs/spec/history.md §1: `messages` become the thread's history. The current rows are marked superseded by
 * `turnId`, except those the same turn wrote (an earlier compaction of this turn): no fork can
 * ever see them, so they are deleted.
 */
export async function replaceHistory(
  manager: EntityManager,
  threadId: string,
  turnId: string,
  messages: readonly Message[],
): Promise<void> {
  await runSql(
    manager,
    `DELETE FROM "conversation_messages"
     WHERE "thread_id" = ? AND "turn_id" = ? AND "superseded_by_turn_id" IS NULL`,
    [threadId, turnId],
  );
  await runSql(
    manager,
    `UPDATE "conversation_messages" SET "superseded_by_turn_id" = ?
     WHERE "thread_id" = ? AND "superseded_by_turn_id" IS NULL`,
    [turnId, threadId],
  );
  await appendMessages(manager, threadId, turnId, messages);
}

/** The figure of the history just written; absent clears it (it would not fit the new history). */
export async function storePromptSize(
  manager: EntityManager,
  threadId: string,
  promptSize: PromptSize | undefined,
): Promise<void> {
  await runSql(
    manager,
    `UPDATE "threads" SET "prompt_tokens" = ?, "prompt_messages_since" = ? WHERE "thread_id" = ?`,
    [promptSize?.promptTokens ?? null, promptSize?.messagesSince ?? null, threadId],
  );
}

export async function appendMessages(
  manager: EntityManager,
  threadId: string,
  turnId: string,
  messages: readonly Message[],
): Promise<void> {
  if (messages.length === 0) return;
  const repository = manager.getRepository(ConversationMessageEntity);
  const raw: { max: unknown } | undefined = await repository
    .createQueryBuilder('message')
    .select('MAX(message.seq)', 'max')
    .where('message.threadId = :threadId', { threadId })
    .getRawOne();
  const last = typeof raw?.max === 'number' ? raw.max : 0;
  const rows = messages.map((message, index) => ({
    threadId,
    turnId,
    seq: last + 1 + index,
    messageJson: JSON.stringify(message),
    supersededByTurnId: null,
  }));
  // Chunked so a long run stays under sqlite's bound-parameter limit.
  for (let start = 0; start < rows.length; start += INSERT_CHUNK_ROWS) {
    await repository.insert(rows.slice(start, start + INSERT_CHUNK_ROWS));
  }
}
