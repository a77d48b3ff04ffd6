import type { StepHistoryEntry, TimelineChunk } from '@tandem/shared';

type Listener = (chunk: TimelineChunk) => void;

/**
 * Steps as they finish, and session ends, for whoever watches a session's live timeline. In-process:
 * a watcher hears the sessions of the relay it is connected to.
 */
export class StepFeed {
  private readonly listeners = new Map<string, Set<Listener>>();

  /** Calls `fn` for each chunk of the session until unsubscribed (or the session ends). */
  subscribe(sessionId: string, fn: Listener): () => void {
    const set = this.listeners.get(sessionId) ?? new Set();
    set.add(fn);
    this.listeners.set(sessionId, set);
    return () => {
      set.delete(fn);
      if (set.size === 0 && this.listeners.get(sessionId) === set) this.listeners.delete(sessionId);
    };
  }

  step(sessionId: string, entry: StepHistoryEntry): void {
    for (const fn of this.listeners.get(sessionId) ?? []) fn({ type: 'step', step: entry });
  }

  ended(sessionId: string, reason: string): void {
    const set = this.listeners.get(sessionId);
    this.listeners.delete(sessionId);
    for (const fn of set ?? []) fn({ type: 'end', reason });
  }
}
