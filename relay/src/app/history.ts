import type { SessionStepsResponse, StepHistoryEntry } from '@tandem/shared';
import { NotFound } from '../errors';
import { clip } from '../quote';

export interface HistoryDeps {
  /** The store's step history. */
  history: { forSession(accountId: string, sessionId: string): Promise<StepHistoryEntry[]> };
  /** The caller's live sessions (a live one with no step yet has an empty timeline, not a 404). */
  live: { list(accountId: string): string[] };
  /** TANDEM_HISTORY_DAYS, for the message of a timeline that is gone. */
  days: number;
}

/** A session's step timeline: live, ended, or from before a relay restart. */
export class HistoryService {
  constructor(private readonly deps: HistoryDeps) {}

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
