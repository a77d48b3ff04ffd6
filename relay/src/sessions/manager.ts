import type { BrowserDriver } from '../browser/driver';
import { BrowserGone } from '../browser/errors';
import type { PageState } from '../browser/playwright-driver';
import { AtCapacity, SessionBusy, SessionGone } from '../errors';
import type { Logger } from '../logger';
import { randomBase62 } from '../store/secrets';
import { OperationCancelled } from './cancellation';
import { type Clock, SYSTEM_CLOCK } from './clock';
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
  /** Where parked sessions wait (the store): a parked session leaves memory, and any relay can bring it back. */
  parked?: ParkedSessions<C> | undefined;
  /** Whose time idle expiry and parking go by (tests move their own). */
  clock?: Clock;
}

/** The store's side of parking: keep a parked session, hear it is live again, end it once it expired. */
export interface ParkedSessions<C> {
  save(session: Session<C>, page: PageState): Promise<void>;
  revived(session: Session<C>): Promise<void>;
  /** Ends a parked session not used since `lastUsedAt`; false when it was (another relay brought it back). */
  expire(sessionId: string, lastUsedAt: number): Promise<boolean>;
}

/** A session this relay parked into the store: no browser, no conversation in memory, only its clock. */
interface Away {
  accountId: string;
  lastUsedAt: number;
  timer: unknown;
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
  /** Sessions this relay parked into the store, until they expire or are brought back (`adopt`). */
  private readonly away = new Map<string, Away>();
  /** Each session's store writes (park, revive) in the order they were made. */
  private readonly storeTurns = new WeakMap<Session<C>, Promise<unknown>>();

  private readonly clock: Clock;

  constructor(private readonly options: SessionManagerOptions<C>) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
  }

  /** How long a request waits for a busy session (TANDEM_SESSION_BUSY_WAIT_SECONDS). */
  get busyWaitMs(): number {
    return this.options.busyWaitMs;
  }

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
    const session = new Session(
      id,
      info,
      driver,
      this.options.busyWaitMs,
      this.options.conversation(),
      this.clock.now(),
    );
    session.lastUsedAt = session.createdAt;
    this.sessions.set(id, session);
    driver.onGone((reason) => void this.end(session, reason));
    this.armIdleTimer(session);
    this.log(session).info({ local: info.local }, 'session created');
    this.options.onOpen?.(session);
    return session;
  }

  /**
   * Takes back a session parked into the store (by this relay or another): it joins the directory still
   * parked, with its own last use, and its next operation revives it. A session already here wins.
   */
  adopt(session: Session<C>): Session<C> {
    const here = this.sessions.get(session.id);
    if (here) return here;
    const away = this.away.get(session.id);
    if (away) this.clock.cancel(away.timer);
    this.away.delete(session.id);
    this.sessions.set(session.id, session);
    session.driver.onGone((reason) => void this.end(session, reason));
    this.armIdleTimer(session);
    this.log(session).info(
      { idleMs: this.clock.now() - session.lastUsedAt },
      'parked session taken back from the store',
    );
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

  /** The caller's sessions this relay holds: live, and parked (in memory or put away in the store). */
  list(accountId: string): string[] {
    const here = [...this.sessions.values()].filter((s) => s.accountId === accountId).map((s) => s.id);
    const away = [...this.away.entries()].filter(([, a]) => a.accountId === accountId).map(([id]) => id);
    return [...here, ...away];
  }

  /** Another relay took back a session this one put away: its clock here stops (that relay keeps time now). */
  letGo(id: string): void {
    const away = this.away.get(id);
    if (!away) return;
    this.clock.cancel(away.timer);
    this.away.delete(id);
  }

  /** Whether this relay put the session away in the store (parked, with nothing of it in memory). */
  isAway(accountId: string, id: string): boolean {
    return this.away.get(id)?.accountId === accountId;
  }

  /** Sessions in the directory, parked ones included. */
  get size(): number {
    return this.sessions.size + this.away.size;
  }

  /** Sessions whose browser context is closed until their next use. */
  get parkedCount(): number {
    let parked = this.away.size;
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
        const store = this.options.parked;
        if (store) {
          await this.inStoreTurn(session, () => store.revived(session)).catch((error: unknown) =>
            this.log(session).warn({ err: error }, 'the store was not told the session is live again'),
          );
        }
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
    for (const [id, away] of this.away) {
      if (away.accountId !== accountId) continue;
      this.clock.cancel(away.timer);
      this.away.delete(id);
    }
    await Promise.all(this.live(accountId).map((s) => this.end(s, 'closed')));
  }

  /**
   * Closes every session. A relay that is stopping (`relay_stopped`) leaves the ones it put away in the
   * store parked there, for its next start or another relay; any other reason ends those too.
   */
  async closeAll(reason: EndReason = 'closed'): Promise<void> {
    for (const [id, away] of this.away) {
      this.clock.cancel(away.timer);
      if (reason === 'relay_stopped') continue;
      this.remember(id, away.accountId, reason);
      this.options.onEnd?.(id, reason);
    }
    this.away.clear();
    await Promise.all([...this.sessions.values()].map((s) => this.end(s, reason)));
  }

  private async end(session: Session<C>, reason: EndReason): Promise<void> {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    this.leaving.delete(session);
    this.clock.cancel(session.idleTimer);
    this.clock.cancel(session.parkTimer);
    this.remember(session.id, session.accountId, reason);
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
    session.lastUsedAt = this.clock.now();
    this.armIdleTimer(session);
  }

  private armIdleTimer(session: Session<C>): void {
    this.clock.cancel(session.idleTimer);
    this.clock.cancel(session.parkTimer);
    session.idleTimer = undefined;
    session.parkTimer = undefined;
    if (session.queue.pending > 0 || !this.sessions.has(session.id)) return;
    // A parked session expires like a live one: parking saves memory, it does not extend a session's life.
    // The clock counts from its last use, which is now but for a session taken back from the store.
    const left = Math.max(0, this.options.idleMs - (this.clock.now() - session.lastUsedAt));
    session.idleTimer = this.clock.after(left, () => void this.end(session, 'expired'));
    const parkAfter = this.options.parkAfterMs ?? 0;
    if (parkAfter > 0 && parkAfter < this.options.idleMs && session.parking && !session.parked) {
      session.parkTimer = this.clock.after(parkAfter, () => void this.park(session));
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
    this.clock.cancel(session.parkTimer);
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
    this.log(session).info({ idleMs: this.clock.now() - session.lastUsedAt }, 'session parked');
    await this.putAway(session);
    this.dropParkedOverLimit();
    return true;
  }

  /**
   * Hands a parked session to the store and lets go of it: what is left here is its clock. A store that
   * refuses it (down, full) leaves it parked in memory; one that an operation is waiting for stays too.
   */
  private async putAway(session: Session<C>): Promise<void> {
    const store = this.options.parked;
    const page = session.parking?.parkedState;
    if (!store || !page) return;
    try {
      await this.inStoreTurn(session, () => store.save(session, page));
    } catch (error) {
      this.log(session).warn({ err: error }, 'parked session kept in memory: the store did not take it');
      return;
    }
    if (this.sessions.get(session.id) !== session || !session.parked || session.queue.pending > 0) return;
    this.sessions.delete(session.id);
    this.clock.cancel(session.idleTimer);
    this.clock.cancel(session.parkTimer);
    const left = Math.max(0, this.options.idleMs - (this.clock.now() - session.lastUsedAt));
    const timer = this.clock.after(left, () => void this.expireAway(session.id));
    this.away.set(session.id, { accountId: session.accountId, lastUsedAt: session.lastUsedAt, timer });
  }

  /** A session put away in the store reached its idle time: it ends, unless another relay took it back. */
  private async expireAway(id: string): Promise<void> {
    const away = this.away.get(id);
    if (!away) return;
    this.clock.cancel(away.timer);
    this.away.delete(id);
    const expired = await this.options.parked?.expire(id, away.lastUsedAt).catch((error: unknown) => {
      this.options.logger.warn({ err: error, sessionId: id }, 'parked session not expired in the store');
      return false;
    });
    if (!expired) return;
    this.remember(id, away.accountId, 'expired');
    this.options.logger.info({ sessionId: id, accountId: away.accountId, reason: 'expired' }, 'session ended');
    this.options.onEnd?.(id, 'expired');
  }

  /** Runs the session's store writes one after another, so a revive is never overtaken by its park. */
  private inStoreTurn<T>(session: Session<C>, write: () => Promise<T>): Promise<T> {
    const next = (this.storeTurns.get(session) ?? Promise.resolve()).then(write, write);
    this.storeTurns.set(
      session,
      next.catch(() => undefined),
    );
    return next;
  }

  private remember(id: string, accountId: string, reason: EndReason): void {
    this.ended.set(id, { accountId, reason });
    if (this.ended.size > TOMBSTONES) this.ended.delete(this.ended.keys().next().value as string);
  }

  /** Past maxParked, the parked sessions idle longest end (as expired): their kept state has a cost too. */
  private dropParkedOverLimit(): void {
    const max = this.options.maxParked ?? Number.POSITIVE_INFINITY;
    let over = this.parkedCount - max;
    if (over <= 0) return;
    const inMemory = [...this.sessions.values()]
      .filter((s) => s.parked)
      .map((s) => ({ id: s.id, lastUsedAt: s.lastUsedAt, end: () => this.end(s, 'expired') }));
    const inStore = [...this.away.entries()].map(([id, a]) => ({
      id,
      lastUsedAt: a.lastUsedAt,
      end: () => this.expireAway(id),
    }));
    for (const parked of [...inMemory, ...inStore].sort((a, b) => a.lastUsedAt - b.lastUsedAt)) {
      if (over-- <= 0) break;
      void parked.end();
    }
  }

  /** Seconds until the soonest idle session expires (a slot frees up then), at least 1. */
  private retryAfterSeconds(): number {
    const idle = [...this.sessions.values()].filter((s) => s.queue.pending === 0);
    if (!idle.length) return 30;
    const soonest = Math.min(...idle.map((s) => s.lastUsedAt + this.options.idleMs));
    return Math.max(1, Math.ceil((soonest - this.clock.now()) / 1000));
  }

  private log(session: Session<C>): Logger {
    return this.options.logger.child({ sessionId: session.id, accountId: session.accountId });
  }
}
