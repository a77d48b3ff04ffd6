import type {
  CloseSessionResponse,
  ConsoleSession,
  ConsoleSessionsResponse,
  SessionStepsResponse,
  StepHistoryEntry,
  TimelineChunk,
} from '@tandem/shared';
import type { ClusterNode } from '../cluster/cluster';
import { Elsewhere, NotFound } from '../errors';
import { clip } from '../quote';
import type { SessionRecord } from '../store/session-records';
import type { StepFeed } from './step-feed';

/** What the console shows of a live session. */
export interface LiveSession {
  id: string;
  info: { local: boolean };
  createdAt: number;
  lastUsedAt: number;
  operation: unknown;
  parked: boolean;
  driver: { url(): string };
}

/** How many sessions the list shows. */
const LISTED_SESSIONS = 200;

export interface HistoryDeps {
  /** The store's step history. */
  history: { forSession(accountId: string, sessionId: string): Promise<StepHistoryEntry[]> };
  /** The store's session records: every session, also after it ended or the relay restarted. */
  records: {
    get(accountId: string, id: string): Promise<SessionRecord | undefined>;
    recent(accountId: string, limit: number): Promise<SessionRecord[]>;
  };
  /** The caller's live sessions (a live one with no step yet has an empty timeline, not a 404). */
  live: {
    list(accountId: string): string[];
    live(accountId: string): LiveSession[];
    endReason(accountId: string, id: string): string | undefined;
    close(accountId: string, id: string): Promise<void>;
  };
  /** TANDEM_HISTORY_DAYS, for the message of a timeline that is gone. */
  days: number;
  /** Steps as they finish, for live timelines. */
  feed: Pick<StepFeed, 'subscribe'>;
  /** Base URL clients reach the relay at: screenshots are kept as paths and answered as URLs. */
  publicUrl(): string;
  /** The other running relay that holds a live session (its timeline is streamed from there). */
  holderOf(sessionId: string): Promise<ClusterNode | undefined>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A session as its record has it: ended, parked in the store, or live on another relay. */
function fromRecord(record: SessionRecord, url: (path: string) => string, now: number): ConsoleSession {
  const ended = record.endedAt !== null;
  return {
    session_id: record.id,
    state: ended ? 'ended' : record.parked ? 'parked' : 'idle',
    ...(ended ? {} : { idle_seconds: Math.max(0, Math.floor((now - record.lastUsedAt) / 1000)) }),
    local: record.local,
    url: record.url,
    created_at: iso(record.createdAt),
    last_used_at: iso(record.lastUsedAt),
    ...(record.endedAt !== null ? { ended_at: iso(record.endedAt), end_reason: record.endReason ?? 'unknown' } : {}),
    ...(record.status ? { status: record.status } : {}),
    steps: record.steps,
    ...(record.lastStepAt !== null ? { last_step_at: iso(record.lastStepAt) } : {}),
    ...(record.screenshot ? { screenshot: url(record.screenshot) } : {}),
  };
}

/** Live and recent sessions, and each one's step timeline: live, ended, or from before a relay restart. */
export class HistoryService {
  constructor(private readonly deps: HistoryDeps) {}

  /** Sessions not ended first (this relay's newest first, then other relays'), then ended ones (latest used first). */
  async sessions(accountId: string, now = Date.now()): Promise<ConsoleSessionsResponse> {
    const live = this.deps.live.live(accountId);
    const records = await this.deps.records.recent(accountId, LISTED_SESSIONS + live.length);
    const recordOf = new Map(records.map((r) => [r.id, r]));
    const current: ConsoleSession[] = live
      .map((session) => {
        const record = recordOf.get(session.id);
        const running = Boolean(session.operation);
        return {
          session_id: session.id,
          state: running ? 'running' : session.parked ? 'parked' : 'idle',
          local: session.info.local,
          url: session.driver.url(),
          created_at: iso(session.createdAt),
          last_used_at: iso(session.lastUsedAt),
          idle_seconds: running ? 0 : Math.max(0, Math.floor((now - session.lastUsedAt) / 1000)),
          ...(record?.status ? { status: record.status } : {}),
          steps: record?.steps ?? 0,
          ...(record?.lastStepAt ? { last_step_at: iso(record.lastStepAt) } : {}),
          ...(record?.screenshot ? { screenshot: this.url(record.screenshot) } : {}),
        } satisfies ConsoleSession;
      })
      .reverse();
    const liveIds = new Set(live.map((s) => s.id));
    const ended = records
      .filter((r) => !liveIds.has(r.id))
      .slice(0, LISTED_SESSIONS)
      .map((record) => {
        const reason = this.deps.live.endReason(accountId, record.id);
        const session = fromRecord(record, (path) => this.url(path), now);
        // Ended here a moment ago: the store may not say so yet.
        return reason && !record.endReason ? { ...session, state: 'ended' as const, end_reason: reason } : session;
      });
    const elsewhere = ended.filter((s) => s.state !== 'ended');
    return { sessions: [...current, ...elsewhere, ...ended.filter((s) => s.state === 'ended')] };
  }

  async steps(accountId: string, sessionId: string): Promise<SessionStepsResponse> {
    const steps = await this.deps.history.forSession(accountId, sessionId);
    if (steps.length === 0 && !(await this.known(accountId, sessionId))) {
      throw new NotFound(
        `No session ${clip(sessionId)} is recorded for this account: it is not one of its sessions, or it ended more than TANDEM_HISTORY_DAYS (${this.deps.days} days${this.deps.days === 0 ? ': history is off' : ''}) ago.`,
      );
    }
    return { session_id: sessionId, steps: steps.map((step) => this.withUrl(step)) };
  }

  /** Closes one of the account's sessions (the console's Close button). */
  async close(accountId: string, sessionId: string): Promise<CloseSessionResponse> {
    await this.deps.live.close(accountId, sessionId);
    return { status: 'closed', session_id: sessionId };
  }

  /**
   * The session's timeline as it grows: `send` hears the recorded steps, then each step as it finishes,
   * then the end (at once for a session that is not live). Answers the unsubscribe, for when the
   * watcher goes away; 404 as `steps` does for a session with nothing to show.
   */
  async watch(accountId: string, sessionId: string, send: (chunk: TimelineChunk) => void): Promise<() => void> {
    // Subscribed before the read, so a step finishing meanwhile is not lost; one already read is not repeated.
    const early: TimelineChunk[] = [];
    let sink: (chunk: TimelineChunk) => void = (chunk) => early.push(chunk);
    // Live on another relay: its steps are told there, so the stream is too.
    if (!this.deps.live.list(accountId).includes(sessionId)) {
      const holder = await this.deps.holderOf(sessionId);
      if (holder) throw new Elsewhere(holder, `Session ${sessionId}`, { accountId, id: sessionId });
    }
    const unsubscribe = this.deps.feed.subscribe(sessionId, (chunk) =>
      sink(chunk.type === 'step' ? { ...chunk, step: this.withUrl(chunk.step) } : chunk),
    );
    try {
      const { steps } = await this.steps(accountId, sessionId);
      for (const step of steps) send({ type: 'step', step });
      const last = steps.at(-1)?.step ?? 0;
      const live = this.deps.live.list(accountId).includes(sessionId);
      for (const chunk of early) if (chunk.type === 'end' || chunk.step.step > last) send(chunk);
      if (!live || early.some((chunk) => chunk.type === 'end')) {
        unsubscribe();
        if (!early.some((chunk) => chunk.type === 'end'))
          send({ type: 'end', reason: await this.endReason(accountId, sessionId) });
        return () => undefined;
      }
      sink = send;
      return unsubscribe;
    } catch (error) {
      unsubscribe();
      throw error;
    }
  }

  /** A stored screenshot path as a URL clients can fetch (an older absolute one is left as it is). */
  private url(path: string): string {
    return path.startsWith('/') ? `${this.deps.publicUrl()}${path}` : path;
  }

  private withUrl(step: StepHistoryEntry): StepHistoryEntry {
    return step.screenshot ? { ...step, screenshot: this.url(step.screenshot) } : step;
  }

  private async known(accountId: string, sessionId: string): Promise<boolean> {
    return (
      this.deps.live.list(accountId).includes(sessionId) ||
      (await this.deps.records.get(accountId, sessionId)) !== undefined
    );
  }

  private async endReason(accountId: string, sessionId: string): Promise<string> {
    return (
      this.deps.live.endReason(accountId, sessionId) ??
      (await this.deps.records.get(accountId, sessionId))?.endReason ??
      'not live'
    );
  }
}
