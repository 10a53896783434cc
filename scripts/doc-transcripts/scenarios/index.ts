/** Every recorded scenario, in the order the transcript index lists them. */
import type { Scenario } from '../scenario';
import { approvalAllowSession } from './approval-allow-session';
import { approvalDenyResolve } from './approval-deny-resolve';
import { errors } from './errors';
import { reconnectAfterItemId } from './reconnect-after-item-id';
import { steerFollowUpInterrupt } from './steer-follow-up-interrupt';
import { threadCompact } from './thread-compact';
import { threadForkMetadata } from './thread-fork-metadata';
import { threadLifecycle } from './thread-lifecycle';
import { turnFinishAndReplay } from './turn-finish-and-replay';

export const SCENARIOS: readonly Scenario[] = [
  turnFinishAndReplay,
  approvalAllowSession,
  approvalDenyResolve,
  steerFollowUpInterrupt,
  reconnectAfterItemId,
  threadLifecycle,
  threadCompact,
  threadForkMetadata,
  errors,
];
