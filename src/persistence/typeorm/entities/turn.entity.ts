/** Row of `turns` (docs/spec/protocol.md §8.11). `owner_pid`/`owner_host`/`owner_token` drive restart recovery. */
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ThreadEntity } from './thread.entity';

@Entity({ name: 'turns' })
@Index('idx_turns_thread_started', ['threadId', 'startedAt'])
@Index('idx_turns_status', ['status'])
// At most one running turn per thread, across every process using the file (docs/spec/protocol.md §8.2).
@Index('idx_turns_one_running_per_thread', ['threadId'], { unique: true, where: `"status" = 'running'` })
export class TurnEntity {
  @PrimaryColumn({ name: 'turn_id', type: 'text' })
  turnId!: string;

  @Column({ name: 'thread_id', type: 'text' })
  threadId!: string;

  @ManyToOne(() => ThreadEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'thread_id',
    referencedColumnName: 'threadId',
    foreignKeyConstraintName: 'fk_turns_thread',
  })
  thread?: ThreadEntity;

  @Column({ name: 'run_id', type: 'text', nullable: true })
  runId!: string | null;

  @Column({ name: 'status', type: 'text' })
  status!: string;

  @Column({ name: 'started_at', type: 'integer' })
  startedAt!: number;

  @Column({ name: 'completed_at', type: 'integer', nullable: true })
  completedAt!: number | null;

  @Column({ name: 'input_json', type: 'text' })
  inputJson!: string;

  @Column({ name: 'result_json', type: 'text' })
  resultJson!: string;

  @Column({ name: 'owner_pid', type: 'integer' })
  ownerPid!: number;

  @Column({ name: 'owner_host', type: 'text' })
  ownerHost!: string;

  /** processStartToken of the owner; null on rows from before it existed. */
  @Column({ name: 'owner_token', type: 'text', nullable: true })
  ownerToken!: string | null;

  /** docs/spec/sandbox.md §1: the turn's effective sandbox mode; null on rows from before v1.2. */
  @Column({ name: 'sandbox', type: 'text', nullable: true })
  sandbox!: string | null;
}
