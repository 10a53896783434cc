/**
 * Asking a turn owner that is a connection of another instance (docs/spec/postgres.md §2). The owner's
 * instance asks its connection through its own ApprovalChannel and reports how that ended. The
 * core only sees this port; the store's driver implements it (PostgreSQL: the NOTIFY channel).
 */
import type { ApprovalRequestParams } from '../model/types';
import type { OwnerAnswer } from './approval-channel';

/** What an instance does when another asks one of its connections. */
export interface LocalOwnerAsker {
  ask(connectionId: string, params: ApprovalRequestParams): Promise<OwnerAnswer>;
  withdraw(connectionId: string, requestId: string): void;
}

export interface RemoteApprovals {
  /** Asks `connectionId` on `instanceId`; `closed` when that instance does not report back. */
  ask(instanceId: string, connectionId: string, params: ApprovalRequestParams): Promise<OwnerAnswer>;
  withdraw(instanceId: string, connectionId: string, requestId: string): void;
  serveWith(asker: LocalOwnerAsker): void;
}

export const REMOTE_APPROVALS = Symbol('REMOTE_APPROVALS');
