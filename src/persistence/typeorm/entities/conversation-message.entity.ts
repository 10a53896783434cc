/** Row of `conversation_messages` (docs/spec/protocol.md §8.10, §8.11): a thread's model history, in `seq` order. */
import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ThreadEntity } from './thread.entity';
import { TurnEntity } from './turn.entity';

@Entity({ name: 'conversation_messages' })
export class ConversationMessageEntity {
  @PrimaryColumn({ name: 'thread_id', type: 'text' })
  threadId!: string;

  @ManyToOne(() => ThreadEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'thread_id',
    referencedColumnName: 'threadId',
    foreignKeyConstraintName: 'fk_conversation_messages_thread',
  })
  thread?: ThreadEntity;

  @PrimaryColumn({ name: 'seq', type: 'integer' })
  seq!: number;

  @Column({ name: 'turn_id', type: 'text' })
  turnId!: string;

  @ManyToOne(() => TurnEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'turn_id',
    referencedColumnName: 'turnId',
    foreignKeyConstraintName: 'fk_conversation_messages_turn',
  })
  turn?: TurnEntity;

  @Column({ name: 'message_json', type: 'text' })
  messageJson!: string;

  /** docs/spec/history.md §1: the turn whose compaction replaced this message; null while it is in the history. */
  @Column({ name: 'superseded_by_turn_id', type: 'text', nullable: true })
  supersededByTurnId!: string | null;
}
