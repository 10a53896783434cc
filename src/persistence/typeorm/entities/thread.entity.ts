/** Row of `threads` (docs/spec/protocol.md §8.11). Timestamps are integer epoch milliseconds. */
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity({ name: 'threads' })
@Index('idx_threads_list_order', ['updatedAt', 'threadId'])
export class ThreadEntity {
  @PrimaryColumn({ name: 'thread_id', type: 'text' })
  threadId!: string;

  @Column({ name: 'agent_key', type: 'text' })
  agentKey!: string;

  @Column({ name: 'cwd', type: 'text', nullable: true })
  cwd!: string | null;

  @Column({ name: 'metadata_json', type: 'text' })
  metadataJson!: string;

  @Column({ name: 'created_at', type: 'integer' })
  createdAt!: number;

  @Column({ name: 'updated_at', type: 'integer' })
  updatedAt!: number;

  @Column({ name: 'archived_at', type: 'integer', nullable: true })
  archivedAt!: number | null;

  @Column({ name: 'active_turn_id', type: 'text', nullable: true })
  activeTurnId!: string | null;

  /** docs/spec/history.md §2: both set for a fork, both null otherwise. */
  @Column({ name: 'forked_from_thread_id', type: 'text', nullable: true })
  forkedFromThreadId!: string | null;

  @Column({ name: 'forked_from_turn_id', type: 'text', nullable: true })
  forkedFromTurnId!: string | null;

  /** docs/spec/history.md §1: the conversation's last provider-reported prompt size (RunResult.promptSize); both null when none. */
  @Column({ name: 'prompt_tokens', type: 'integer', nullable: true })
  promptTokens!: number | null;

  @Column({ name: 'prompt_messages_since', type: 'integer', nullable: true })
  promptMessagesSince!: number | null;
  /** docs/spec/mcp.md §1: the thread-level `mcpServers` (JSON, unmasked), null when none were given. */
  @Column({ name: 'mcp_servers_json', type: 'text', nullable: true })
  mcpServersJson!: string | null;

  /** docs/spec/sandbox.md §1: the thread's effective sandbox mode; null on rows from before v1.2. */
  @Column({ name: 'sandbox', type: 'text', nullable: true })
  sandbox!: string | null;
}
