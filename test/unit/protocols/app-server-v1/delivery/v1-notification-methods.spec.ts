/**
 * The v1 delivery's mapping of the domain's thread event kinds (docs/spec/protocol.md §4): one
 * method per kind, each a distinct server notification, and what ThreadNotifications sends.
 */
import type { ThreadEventKind } from '../../../../../src/core/events/thread-event-bus';
import { v1MethodOf } from '../../../../../src/protocols/app-server-v1/delivery/v1-notification-methods';

const EXPECTED: Record<ThreadEventKind, string> = {
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

describe('v1MethodOf', () => {
  it.each(Object.entries(EXPECTED))('announces %s as %s', (kind, method) => {
    expect(v1MethodOf(kind as ThreadEventKind)).toBe(method);
  });

  it('gives every kind its own method', () => {
    const kinds = Object.keys(EXPECTED) as ThreadEventKind[];
    expect(new Set(kinds.map((kind) => v1MethodOf(kind))).size).toBe(kinds.length);
  });

  it('returns the same string each time (a literal, nothing built per delta)', () => {
    expect(v1MethodOf('agentMessageTextDelta')).toBe(v1MethodOf('agentMessageTextDelta'));
  });
});
