/**
 * The cluster channel's names (docs/spec/postgres.md §2, docs/spec-interpretations.md): the previous
 * version's, so instances of both versions on one database during a rolling upgrade understand
 * each other; names this version does not know are not taken for anything.
 */
import type { ThreadEventKind } from '../../../../src/core/events/thread-event-bus';
import type { ForwardedControlOperation } from '../../../../src/core/turns/turn-control-forwarding';
import {
  eventKindOf,
  eventWireName,
  operationOf,
  operationWireName,
} from '../../../../src/persistence/postgres/cluster/cluster-wire-names';

const PREVIOUS_EVENT_NAMES: Record<ThreadEventKind, string> = {
  threadArchived: 'thread/archived',
  threadStatusChanged: 'thread/status/changed',
  threadUpdated: 'thread/updated',
  turnStarted: 'turn/started',
  turnCompleted: 'turn/completed',
  itemStarted: 'item/started',
  agentMessageTextDelta: 'item/agentMessage/delta',
  toolCallArgumentsDelta: 'item/toolCall/delta',
  itemCompleted: 'item/completed',
  approvalRequested: 'approval/requested',
  approvalResolved: 'approval/resolved',
  warning: 'error/warning',
};

const PREVIOUS_OPERATION_NAMES: Record<ForwardedControlOperation, string> = {
  steerTurn: 'turn/steer',
  followUpTurn: 'turn/followUp',
  interruptTurn: 'turn/interrupt',
  resolveApproval: 'approval/resolve',
  readLiveState: 'thread/liveState',
};

describe('cluster wire names', () => {
  it.each(Object.entries(PREVIOUS_EVENT_NAMES))('sends and reads the event kind %s as %s', (kind, name) => {
    expect(eventWireName(kind as ThreadEventKind)).toBe(name);
    expect(eventKindOf(name)).toBe(kind);
  });

  it.each(Object.entries(PREVIOUS_OPERATION_NAMES))('sends and reads the operation %s as %s', (op, name) => {
    expect(operationWireName(op as ForwardedControlOperation)).toBe(name);
    expect(operationOf(name)).toBe(op);
  });

  it('knows no other name', () => {
    for (const name of ['item/reasoning/delta', 'itemStarted', 'steerTurn', '', undefined, 7, 'toString'])
      expect([eventKindOf(name), operationOf(name)]).toEqual([undefined, undefined]);
  });
});
