/**
 * Row of `items` (docs/spec/protocol.md §8.11): one row per logical item, upserted by `item_id`.
 * `position` is the first appearance within the thread; `created_seq`/`change_seq` are the thread's
 * change counter values at creation and at the latest persisted change (§8.8 afterItemId).
 */
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ThreadEntity } from './thread.entity';
import { TurnEntity } from './turn.entity';

@Entity({ name: 'items' })
@Index('idx_items_thread_position', ['threadId', 'position'], { unique: true })
@Index('idx_items_turn', ['turnId'])
export class ItemEntity {
  @PrimaryColumn({ name: 'item_id', type: 'text' })
  itemId!: string;

  @Column({ name: 'thread_id', type: 'text' })
  threadId!: string;

  @ManyToOne(() => ThreadEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'thread_id',
    referencedColumnName: 'threadId',
    foreignKeyConstraintName: 'fk_items_thread',
  })
  thread?: ThreadEntity;

  @Column({ name: 'turn_id', type: 'text' })
  turnId!: string;

  @ManyToOne(() => TurnEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'turn_id', referencedColumnName: 'turnId', foreignKeyConstraintName: 'fk_items_turn' })
  turn?: TurnEntity;

  @Column({ name: 'position', type: 'integer' })
  position!: number;

  @Column({ name: 'created_seq', type: 'integer' })
  createdSeq!: number;

  @Column({ name: 'change_seq', type: 'integer' })
  changeSeq!: number;

  @Column({ name: 'item_json', type: 'text' })
  itemJson!: string;
}
