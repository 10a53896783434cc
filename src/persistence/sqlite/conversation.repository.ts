/** A thread's model history across turns (protocol.md §8.10), ordered by a per-thread `seq`. */
import type { EntityManager } from 'typeorm';
import type { Message } from '../../runtime/messages';
import { ConversationMessageEntity } from './entities';
import type { StoreExecutor } from './store-executor';
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
    return this.executor.run(async (manager) => {
      const rows = await manager
        .getRepository(ConversationMessageEntity)
        .find({ where: { threadId }, order: { seq: 'ASC' } });
      return rows.map(
        (row) => parseJsonObject(row.messageJson, 'conversation_messages.message_json') as unknown as Message,
      );
    });
  }
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
  }));
  // Chunked so a long run stays under sqlite's bound-parameter limit.
  for (let start = 0; start < rows.length; start += INSERT_CHUNK_ROWS) {
    await repository.insert(rows.slice(start, start + INSERT_CHUNK_ROWS));
  }
}
