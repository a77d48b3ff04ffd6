import type { ConsoleSession, ConsoleSessionsResponse, SessionStepsResponse, StepHistoryEntry } from '@tandem/shared';
import { NotFound } from '../errors';
import { clip } from '../quote';

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
}

/** A session's step timeline: live, ended, or from before a relay restart. */
export class HistoryService {
  constructor(private readonly deps: HistoryDeps) {}

  /** Live sessions first (oldest first), then ended ones with recorded steps, latest first. */
  async sessions(accountId: string, now = Date.now()): Promise<ConsoleSessionsResponse> {
    const recent = await this.deps.history.recentSessions(accountId, RECENT_SESSIONS + 50);
    const stepsOf = new Map(recent.map((r) => [r.sessionId, r]));
    const live: ConsoleSession[] = this.deps.live.live(accountId).map((session) => {
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
}
