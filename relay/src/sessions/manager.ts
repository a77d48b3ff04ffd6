import type { BrowserDriver } from '../browser/driver';
import { BrowserGone } from '../browser/errors';
import { AtCapacity, SessionBusy, SessionGone } from '../errors';
import type { Logger } from '../logger';
import { randomBase62 } from '../store/secrets';
import { OperationCancelled } from './cancellation';
import { QueueWaitTimeout } from './queue';
import { type EndReason, Session, type SessionInfo } from './session';

export interface SessionManagerOptions<C> {
  nodeId: string;
  maxSessions: number;
  idleMs: number;
  busyWaitMs: number;
  logger: Logger;
  /** What a new session keeps for the layer above (the agent's conversation). */
  conversation: () => C;
  /** Fields for the "session ended" log line (the conversation's token totals). */
  endFields?: (conversation: C) => Record<string, unknown>;
  /** Told of every session that ended, with why (after it is gone from the directory). */
  onEnd?: (sessionId: string, reason: EndReason) => void;
}

/** Ended sessions remembered so a late caller hears "closed" or "expired" rather than "unknown". */
const TOMBSTONES = 10_000;

/**
 * Live sessions, in memory (they last minutes). One in-process implementation; the seam for a
 * Redis-backed directory across relay nodes (DESIGN §9).
 */
export class SessionManager<C = unknown> {
  private readonly sessions = new Map<string, Session<C>>();
  private readonly ended = new Map<string, { accountId: string; reason: EndReason }>();
  /** Slots held by sessions still being created, so concurrent creates respect the cap. */
  private reserved = 0;

  constructor(private readonly options: SessionManagerOptions<C>) {}

  newId(): string {
    return `ses_${this.options.nodeId}_${randomBase62(128)}`;
  }

  /** Creates a session whose driver `open` builds; the cap counts sessions still opening. */
  async create(
    info: SessionInfo,
    open: (sessionId: string) => Promise<BrowserDriver>,
    id = this.newId(),
  ): Promise<Session<C>> {
    if (this.sessions.size + this.reserved >= this.options.maxSessions) {
      throw new AtCapacity(this.options.maxSessions, this.retryAfterSeconds());
    }
    this.reserved++;
    let driver: BrowserDriver;
    try {
      driver = await open(id);
    } finally {
      this.reserved--;
    }
    const session = new Session(id, info, driver, this.options.busyWaitMs, this.options.conversation());
    this.sessions.set(id, session);
    driver.onGone((reason) => void this.end(session, reason));
    this.armIdleTimer(session);
    this.log(session).info({ local: info.local }, 'session created');
    return session;
  }

  /** The caller's live session, or SessionGone (another account's session is "unknown"). */
  get(accountId: string, id: string): Session<C> {
    const session = this.sessions.get(id);
    if (session && session.accountId === accountId) return session;
    const ended = this.ended.get(id);
    if (ended && ended.accountId === accountId) {
      throw new SessionGone(id, ended.reason);
    }
    throw new SessionGone(id, 'unknown');
  }

  /** The caller's live sessions, oldest first. */
  live(accountId: string): Session<C>[] {
    return [...this.sessions.values()].filter((s) => s.accountId === accountId);
  }

  /** Why one of the caller's sessions ended, while this relay remembers it. */
  endReason(accountId: string, id: string): EndReason | undefined {
    const ended = this.ended.get(id);
    return ended?.accountId === accountId ? ended.reason : undefined;
  }

  list(accountId: string): string[] {
    return [...this.sessions.values()].filter((s) => s.accountId === accountId).map((s) => s.id);
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Runs an operation on the session, after the ones queued before it. The idle timer is off while
   * anything is queued or running and restarts when the last operation ends. The operation gets a
   * signal that aborts when `signal` does (the client went away, a time budget ran out) or the session
   * ends; while still queued, such an operation gives up its turn and never runs.
   */
  async run<T>(
    session: Session<C>,
    operation: (signal: AbortSignal) => Promise<T>,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<T> {
    // queue.run counts the operation as pending synchronously, so touch() leaves the timer off.
    const queued = session.queue.run(async () => {
      this.assertLive(session);
      this.touch(session);
      const controller = new AbortController();
      const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
      session.operation = controller;
      try {
        return await operation(signal);
      } finally {
        session.operation = undefined;
      }
    }, options.signal);
    this.touch(session);
    try {
      return await queued;
    } catch (error) {
      if (error instanceof QueueWaitTimeout) throw new SessionBusy(session.id, error.waitedMs);
      // An operation that lost its browser or was stopped because the session ended reports the end.
      const ended = error instanceof BrowserGone || error instanceof OperationCancelled;
      if (ended && !this.sessions.has(session.id)) this.assertLive(session);
      throw error;
    } finally {
      this.touch(session);
    }
  }

  /**
   * Closes at once, even while an operation runs: that operation is cancelled (its model request
   * aborted, no further action taken) and fails as closed.
   */
  async close(accountId: string, id: string): Promise<void> {
    await this.end(this.get(accountId, id), 'closed');
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => this.end(s, 'closed')));
  }

  private async end(session: Session<C>, reason: EndReason): Promise<void> {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    clearTimeout(session.idleTimer);
    this.ended.set(session.id, { accountId: session.accountId, reason });
    if (this.ended.size > TOMBSTONES) this.ended.delete(this.ended.keys().next().value as string);
    // The session's token totals go out once, here, so cost per session is in the logs after it ends.
    this.log(session).info({ reason, ...this.options.endFields?.(session.conversation) }, 'session ended');
    this.options.onEnd?.(session.id, reason);
    session.cancel(new OperationCancelled('session_ended', new SessionGone(session.id, reason).message));
    await session.driver.close();
  }

  private assertLive(session: Session<C>): void {
    if (this.sessions.get(session.id) !== session) this.get(session.accountId, session.id);
  }

  private touch(session: Session<C>): void {
    session.lastUsedAt = Date.now();
    this.armIdleTimer(session);
  }

  private armIdleTimer(session: Session<C>): void {
    clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
    if (session.queue.pending > 0 || !this.sessions.has(session.id)) return;
    session.idleTimer = setTimeout(() => void this.end(session, 'expired'), this.options.idleMs);
    session.idleTimer.unref();
  }

  /** Seconds until the soonest idle session expires (a slot frees up then), at least 1. */
  private retryAfterSeconds(): number {
    const idle = [...this.sessions.values()].filter((s) => s.queue.pending === 0);
    if (!idle.length) return 30;
    const soonest = Math.min(...idle.map((s) => s.lastUsedAt + this.options.idleMs));
    return Math.max(1, Math.ceil((soonest - Date.now()) / 1000));
  }

  private log(session: Session<C>): Logger {
    return this.options.logger.child({ sessionId: session.id, accountId: session.accountId });
  }
}
