/** Params of the `turn/*` methods (docs/spec/protocol.md §3.9–§3.12), in the order of each params table. */
import type {
  TurnControlRequest,
  TurnInterruptRequest,
  TurnStartRequest,
} from '../../../core/turns/turn-requests';
import {
  OptionalBoolean,
  OptionalObject,
  OptionalOneOf,
  OptionalString,
  RequiredObjectArray,
  RequiredString,
} from './param-rules';
import { SANDBOX_MODES, type SandboxMode } from '../../../runtime/sandbox/sandbox-mode';

export class TurnStartParamsDto implements TurnStartRequest {
  @RequiredString()
  threadId!: string;

  /** Free-form objects; canonical text element `{"type":"text","text":"…"}`. May be empty. */
  @RequiredObjectArray()
  input!: Record<string, unknown>[];

  /** Default `{}`; overlays the thread metadata for host resolution, not persisted. */
  @OptionalObject()
  metadata?: Record<string, unknown>;

  /** docs/spec/sandbox.md §1: only stricter than the server's mode (the service checks that). */
  @OptionalOneOf(SANDBOX_MODES)
  sandbox?: SandboxMode;
}

/** `turn/steer` and `turn/followUp`. */
export class TurnControlParamsDto implements TurnControlRequest {
  @RequiredString()
  threadId!: string;

  /** Default `""` (no check); `null` is a wrong type. */
  @OptionalString()
  expectedTurnId?: string;

  @RequiredObjectArray()
  input!: Record<string, unknown>[];
}

export class TurnInterruptParamsDto implements TurnInterruptRequest {
  @RequiredString()
  threadId!: string;

  /** Default `""` (no check). */
  @OptionalString()
  expectedTurnId?: string;

  @OptionalString()
  reason?: string;

  /** v1.2, default `false`: drop the thread's queued follow-ups in the same step (§3.12). */
  @OptionalBoolean()
  clearFollowUps?: boolean;
}
