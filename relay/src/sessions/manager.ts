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
  /** Told of every session made (after it is in the directory). */
  onOpen?: (session: Session<C>) => void;
  /** Told when an operation on a session ended: its page and last use changed. */
  onUsed?: (session: Session<C>) => void;
  /** Told of every session that ended, with why (after it is gone from the directory). */
  onEnd?: (sessionId: string, reason: EndReason) => void;
  /** Parks a remote session idle this long (TANDEM_PARK_AFTER_SECONDS); 0: only when the live limit needs room. */
  parkAfterMs?: number;
  /** The most parked sessions kept; past it the longest idle parked one ends as expired. */
  maxParked?: number;
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
  /** Sessions being parked: their context is still open, but their slot is already promised. */
  private readonly leaving = new Set<Session<C>>();

  constructor(private readonly options: SessionManagerOptions<C>) {}

  newId(): string {
    return `ses_${this.options.nodeId}_${randomBase62(128)}`;
  }

  /**
   * Creates a session whose driver `open` builds. The cap (TANDEM_MAX_SESSIONS) counts live browsers,
   * sessions still opening included: at the cap the least recently used idle remote session is parked
   * to make room, and only when none can be is the create refused.
   */
  async create(
    info: SessionInfo,
    open: (sessionId: string) => Promise<BrowserDriver>,
    id = this.newId(),
  ): Promise<Session<C>> {
    await this.makeRoom();
    if (this.liveCount() + this.reserved >= this.options.maxSessions) {
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
    this.options.onOpen?.(session);
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

  /** Sessions in the directory, parked ones included. */
  get size(): number {
    return this.sessions.size;
  }

  /** Sessions whose browser context is closed until their next use. */
  get parkedCount(): number {
    let parked = 0;
    for (const session of this.sessions.values()) if (session.parked) parked++;
    return parked;
  }

  /**
   * Parks a remote session now if nothing is queued on it (retrieve's sessions, as soon as the call
   * returns). Its next use revives it. Never rejects: a session that cannot be parked stays live.
   */
  async park(session: Session<C>): Promise<boolean> {
    if (!session.parking || session.queue.pending > 0 || !this.sessions.has(session.id)) return false;
    return this.parkNow(session);
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
      if (session.parked || this.leaving.has(session)) {
        await this.makeRoom(session);
        session.notice = await session.parking?.revive();
        this.assertLive(session);
      }
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
      if (this.sessions.get(session.id) === session) this.options.onUsed?.(session);
    }
  }

  /**
   * Closes at once, even while an operation runs: that operation is cancelled (its model request
   * aborted, no further action taken) and fails as closed.
   */
  async close(accountId: string, id: string): Promise<void> {
    await this.end(this.get(accountId, id), 'closed');
  }

  /** Closes every session of an account (the account is being deleted). */
  async closeAllOf(accountId: string): Promise<void> {
    await Promise.all(this.live(accountId).map((s) => this.end(s, 'closed')));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => this.end(s, 'closed')));
  }

  private async end(session: Session<C>, reason: EndReason): Promise<void> {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    this.leaving.delete(session);
    clearTimeout(session.idleTimer);
    clearTimeout(session.parkTimer);
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
    clearTimeout(session.parkTimer);
    session.idleTimer = undefined;
    session.parkTimer = undefined;
    if (session.queue.pending > 0 || !this.sessions.has(session.id)) return;
    // A parked session expires like a live one: parking saves memory, it does not extend a session's life.
    session.idleTimer = setTimeout(() => void this.end(session, 'expired'), this.options.idleMs);
    session.idleTimer.unref();
    const parkAfter = this.options.parkAfterMs ?? 0;
    if (parkAfter > 0 && parkAfter < this.options.idleMs && session.parking && !session.parked) {
      session.parkTimer = setTimeout(() => void this.park(session), parkAfter);
      session.parkTimer.unref();
    }
  }

  /** Live browsers: sessions neither parked nor being parked. */
  private liveCount(): number {
    let live = 0;
    for (const session of this.sessions.values()) if (!session.parked && !this.leaving.has(session)) live++;
    return live;
  }

  /** Parks least recently used idle remote sessions (never `except`) until a live slot is free or none is left to park. */
  private async makeRoom(except?: Session<C>): Promise<void> {
    const tried = new Set<Session<C>>();
    while (this.liveCount() + this.reserved >= this.options.maxSessions) {
      let victim: Session<C> | undefined;
      for (const session of this.sessions.values()) {
        if (session === except || tried.has(session) || !session.parking || session.parked) continue;
        if (this.leaving.has(session) || session.queue.pending > 0) continue;
        if (!victim || session.lastUsedAt < victim.lastUsedAt) victim = session;
      }
      if (!victim) return;
      tried.add(victim);
      await this.parkNow(victim);
    }
  }

  private async parkNow(session: Session<C>): Promise<boolean> {
    if (this.leaving.has(session)) return false;
    clearTimeout(session.parkTimer);
    session.parkTimer = undefined;
    this.leaving.add(session);
    let parked = false;
    try {
      parked = (await session.parking?.park()) ?? false;
    } catch (error) {
      // Never the caller's problem: the session just stays live.
      this.log(session).warn({ err: error }, 'session not parked');
    } finally {
      this.leaving.delete(session);
    }
    if (!parked) return false;
    this.log(session).info({ idleMs: Date.now() - session.lastUsedAt }, 'session parked');
    this.dropParkedOverLimit();
    return true;
  }

  /** Past maxParked, the parked sessions idle longest end (as expired): their kept state has a memory cost too. */
  private dropParkedOverLimit(): void {
    const max = this.options.maxParked ?? Number.POSITIVE_INFINITY;
    let over = this.parkedCount - max;
    if (over <= 0) return;
    const parked = [...this.sessions.values()].filter((s) => s.parked).sort((a, b) => a.lastUsedAt - b.lastUsedAt);
    for (const session of parked) {
      if (over-- <= 0) break;
      void this.end(session, 'expired');
    }
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
