import type {
  ConsoleSession,
  ConsoleSessionsResponse,
  SessionStepsResponse,
  StepHistoryEntry,
  TimelineChunk,
} from '@tandem/shared';
import { NotFound } from '../errors';
import { clip } from '../quote';
import type { StepFeed } from './step-feed';

/** What the console shows of a live session. */
export interface LiveSession {
  id: string;
  info: { local: boolean };
  createdAt: number;
  lastUsedAt: number;
  operation: unknown;
  driver: { url(): string };
}

/** How many ended sessions the list shows. */
const RECENT_SESSIONS = 100;

export interface HistoryDeps {
  /** The store's step history. */
  history: {
    forSession(accountId: string, sessionId: string): Promise<StepHistoryEntry[]>;
    recentSessions(
      accountId: string,
      limit: number,
    ): Promise<{ sessionId: string; steps: number; firstAt: number; lastAt: number }[]>;
  };
  /** The caller's live sessions (a live one with no step yet has an empty timeline, not a 404). */
  live: {
    list(accountId: string): string[];
    live(accountId: string): LiveSession[];
    endReason(accountId: string, id: string): string | undefined;
  };
  /** TANDEM_HISTORY_DAYS, for the message of a timeline that is gone. */
  days: number;
  /** Steps as they finish, for live timelines. */
  feed: Pick<StepFeed, 'subscribe'>;
}

/** A session's step timeline: live, ended, or from before a relay restart. */
export class HistoryService {
  constructor(private readonly deps: HistoryDeps) {}

  /** Live sessions first (oldest first), then ended ones with recorded steps, latest first. */
  async sessions(accountId: string, now = Date.now()): Promise<ConsoleSessionsResponse> {
    const sessions = this.deps.live.live(accountId);
    // Live sessions with steps are among the most recent too: fetch enough to still show RECENT_SESSIONS ended ones.
    const recent = await this.deps.history.recentSessions(accountId, RECENT_SESSIONS + sessions.length);
    const stepsOf = new Map(recent.map((r) => [r.sessionId, r]));
    const live: ConsoleSession[] = sessions.map((session) => {
      const recorded = stepsOf.get(session.id);
      return {
        session_id: session.id,
        state: session.operation ? 'running' : 'idle',
        local: session.info.local,
        url: session.driver.url(),
        created_at: new Date(session.createdAt).toISOString(),
        idle_seconds: session.operation ? 0 : Math.max(0, Math.floor((now - session.lastUsedAt) / 1000)),
        steps: recorded?.steps ?? 0,
        ...(recorded ? { last_step_at: new Date(recorded.lastAt).toISOString() } : {}),
      };
    });
    const liveIds = new Set(live.map((s) => s.session_id));
    const ended: ConsoleSession[] = recent
      .filter((r) => !liveIds.has(r.sessionId))
      .slice(0, RECENT_SESSIONS)
      .map((r) => {
        const reason = this.deps.live.endReason(accountId, r.sessionId);
        return {
          session_id: r.sessionId,
          state: 'ended',
          ...(reason ? { end_reason: reason } : {}),
          steps: r.steps,
          last_step_at: new Date(r.lastAt).toISOString(),
        };
      });
    return { sessions: [...live, ...ended] };
  }

  async steps(accountId: string, sessionId: string): Promise<SessionStepsResponse> {
    const steps = await this.deps.history.forSession(accountId, sessionId);
    if (steps.length === 0 && !this.deps.live.list(accountId).includes(sessionId)) {
      throw new NotFound(
        `No steps are recorded for session ${clip(sessionId)}: it is not one of this account's, it ran no agent step, or its steps are older than TANDEM_HISTORY_DAYS (${this.deps.days} days${this.deps.days === 0 ? ': history is off' : ''}).`,
      );
    }
    return { session_id: sessionId, steps };
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
    const unsubscribe = this.deps.feed.subscribe(sessionId, (chunk) => sink(chunk));
    try {
      const { steps } = await this.steps(accountId, sessionId);
      for (const step of steps) send({ type: 'step', step });
      const last = steps.at(-1)?.step ?? 0;
      const live = this.deps.live.list(accountId).includes(sessionId);
      for (const chunk of early) if (chunk.type === 'end' || chunk.step.step > last) send(chunk);
      if (!live || early.some((chunk) => chunk.type === 'end')) {
        unsubscribe();
        if (!early.some((chunk) => chunk.type === 'end'))
          send({ type: 'end', reason: this.deps.live.endReason(accountId, sessionId) ?? 'not live' });
        return () => undefined;
      }
      sink = send;
      return unsubscribe;
    } catch (error) {
      unsubscribe();
      throw error;
    }
  }
}
