/**
 * Who receives a thread's traffic (docs/spec/protocol.md §7.2) and the thread's in-memory "closed" flag
 * (§8.1). Both are in-memory only: nothing here is persisted, so after a restart no connection is
 * subscribed and no thread is closed. A closing connection is removed from every thread.
 */
import { Injectable } from '@nestjs/common';

@Injectable()
export class ThreadSubscriptions {
  private readonly subscribersByThread = new Map<string, Set<string>>();
  private readonly closedThreads = new Set<string>();

  /** Subscribes `connectionId` (idempotent) and clears the closed flag; true when it was not subscribed yet. */
  subscribe(threadId: string, connectionId: string): boolean {
    this.closedThreads.delete(threadId);
    let subscribers = this.subscribersByThread.get(threadId);
    if (subscribers === undefined) {
      subscribers = new Set();
      this.subscribersByThread.set(threadId, subscribers);
    }
    if (subscribers.has(connectionId)) return false;
    subscribers.add(connectionId);
    return true;
  }

  /** Removes `connectionId` (no error when it was not subscribed). */
  unsubscribe(threadId: string, connectionId: string): void {
    const subscribers = this.subscribersByThread.get(threadId);
    if (subscribers === undefined) return;
    subscribers.delete(connectionId);
    if (subscribers.size === 0) this.subscribersByThread.delete(threadId);
  }

  isSubscribed(threadId: string, connectionId: string): boolean {
    return this.subscribersByThread.get(threadId)?.has(connectionId) ?? false;
  }

  /** The current subscribers, in subscription order. */
  subscribers(threadId: string): string[] {
    return [...(this.subscribersByThread.get(threadId) ?? [])];
  }

  hasSubscribers(threadId: string): boolean {
    return (this.subscribersByThread.get(threadId)?.size ?? 0) > 0;
  }

  isClosed(threadId: string): boolean {
    return this.closedThreads.has(threadId);
  }

  markClosed(threadId: string): void {
    this.closedThreads.add(threadId);
  }

  clearClosed(threadId: string): void {
    this.closedThreads.delete(threadId);
  }

  /** Removes a subscriber that went away (its connection closed) from every thread. */
  dropSubscriber(connectionId: string): void {
    for (const [threadId, subscribers] of this.subscribersByThread) {
      subscribers.delete(connectionId);
      if (subscribers.size === 0) this.subscribersByThread.delete(threadId);
    }
  }
}
