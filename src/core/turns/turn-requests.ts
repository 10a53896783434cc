/**
 * What the turn service is asked (docs/spec/protocol.md §3.9–§3.12), independent of how a protocol validates
 * it: the v1 params DTOs implement these, so the compiler keeps them in step.
 */
import type { SandboxMode } from '../../runtime/sandbox/sandbox-mode';

export interface TurnStartRequest {
  threadId: string;
  input: Record<string, unknown>[];
  metadata?: Record<string, unknown>;
  /** docs/spec/sandbox.md §1: a mode no looser than the server's. */
  sandbox?: SandboxMode;
}

/** Steering and follow-ups. */
export interface TurnControlRequest {
  threadId: string;
  /** Ignored when absent or empty; otherwise must name the active turn. */
  expectedTurnId?: string;
  input: Record<string, unknown>[];
}

export interface TurnInterruptRequest {
  threadId: string;
  expectedTurnId?: string;
  reason?: string;
  /** docs/spec/protocol.md §3.12 v1.2: also drop the thread's queued follow-ups (default false). */
  clearFollowUps?: boolean;
}
