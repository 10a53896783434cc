/** One active turn of this server: its run, projector, owner and approval timeout (docs/spec/protocol.md §7.3, §8). */
import type { RunHandle, RunResult } from '../../runtime/run-config';
import type { RunProjector } from './run-projector';
import type { ThreadChangeCounter } from './change-counter';
import type { TurnKind } from './conversation-change';
import type { ItemVersion } from '../store/records';
import { coalesceItemVersions } from '../store/item-write-batch';
import { TurnTelemetry } from './turn-telemetry';

export interface RunningTurnInit {
  threadId: string;
  turnId: string;
  runId: string;
  /** An agent turn, or a compaction turn (docs/spec/history.md §1). */
  kind: TurnKind;
  /** The start (or follow-up) input, verbatim (`[]` for a compaction turn). */
  input: Record<string, unknown>[];
  /** The connection whose start request created the turn (follow-ups: the previous owner). */
  ownerConnectionId: string;
  handle: RunHandle;
  projector: RunProjector;
  changeCounter: ThreadChangeCounter;
  /** The server's approval timer for this turn (host value or server default, §10.2). */
  approvalTimeoutMs: number;
  /** Its span and metrics (docs/spec/observability.md); a fresh one when absent (tests). */
  telemetry?: TurnTelemetry;
}

/**
 * Who writes the turn's terminal state: its finalization; shutdown at its deadline (§1.9 step 5);
 * or nobody, because another instance declared this one lost and ended the turn (docs/spec/postgres.md §2).
 */
export type PersistenceClaimant = 'finalizer' | 'shutdown' | 'lost';

export class RunningTurn {
  readonly threadId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly kind: TurnKind;
  readonly input: Record<string, unknown>[];
  /**
   * The turn's owner (docs/spec/protocol.md §7.3). It moves only when the owner's connection is gone and
   * another connection resumes the thread (docs/spec/websocket.md §6); follow-ups inherit the current value.
   */
  ownerConnectionId: string;
  readonly handle: RunHandle;
  readonly projector: RunProjector;
  readonly changeCounter: ThreadChangeCounter;
  readonly approvalTimeoutMs: number;
  readonly telemetry: TurnTelemetry;
  /** The run's result once `result()` resolved (shutdown uses its messages when it must finish the turn itself). */
  settledResult: RunResult | null = null;
  /**
   * Item states the store refused (e.g. SQLITE_BUSY past the busy timeout) although their
   * notifications went out: written again with the turn's next item write and with its finish (or
   * its write at shutdown), so a replayed item still equals its last notification once the store
   * accepts writes again (docs/spec/protocol.md §8.5).
   */
  private refusedItems: ItemVersion[] = [];
  private persistenceClaim: PersistenceClaimant | null = null;
  private readonly finishedPromise: Promise<void>;
  private markFinished!: () => void;

  constructor(init: RunningTurnInit) {
    this.threadId = init.threadId;
    this.turnId = init.turnId;
    this.runId = init.runId;
    this.kind = init.kind;
    this.input = init.input;
    this.ownerConnectionId = init.ownerConnectionId;
    this.handle = init.handle;
    this.projector = init.projector;
    this.changeCounter = init.changeCounter;
    this.approvalTimeoutMs = init.approvalTimeoutMs;
    this.telemetry =
      init.telemetry ??
      new TurnTelemetry({ threadId: init.threadId, turnId: init.turnId, agentKey: '', parent: undefined });
    this.finishedPromise = new Promise<void>((resolve) => {
      this.markFinished = resolve;
    });
    init.handle.result().then(
      (result) => {
        this.settledResult = result;
      },
      () => undefined,
    );
  }

  /** `versions` after the states the store refused before them, one (the latest) per item. */
  withRefusedItems(versions: readonly ItemVersion[]): readonly ItemVersion[] {
    return this.refusedItems.length === 0
      ? versions
      : coalesceItemVersions([...this.refusedItems, ...versions]);
  }

  /** A write of `withRefusedItems(…)` was refused: kept whole for the next write. */
  itemsRefused(writes: readonly ItemVersion[]): void {
    this.refusedItems = [...writes];
  }

  /** A write of `withRefusedItems(…)` was stored: nothing is owed any more. */
  itemsWritten(): void {
    this.refusedItems = [];
  }

  /** The first claim wins, so the turn is finished exactly once (or, when lost, not here at all). */
  claimPersistence(claimant: PersistenceClaimant): boolean {
    if (this.persistenceClaim !== null) return false;
    this.persistenceClaim = claimant;
    return true;
  }

  /** True once shutdown finished the turn in the store itself, or it was lost: forwarding stops without a trace. */
  get abandoned(): boolean {
    return this.persistenceClaim === 'shutdown' || this.persistenceClaim === 'lost';
  }

  /** Resolves when forwarding and finalization are over (never rejects; pending until forwarding began). */
  get finished(): Promise<void> {
    return this.finishedPromise;
  }

  trackForwarding(work: Promise<void>): void {
    work.catch(() => undefined).finally(this.markFinished);
  }
}
