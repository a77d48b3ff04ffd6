import { StepHistoryEntry } from '@tandem/shared';
import type { Db } from './database';

/** Every agent step of every session, for its timeline: kept a number of days, across restarts. */
export class StepHistory {
  constructor(private readonly db: Db) {}

  /** Records a step; a step recorded twice (a retried write) keeps the later record. */
  async append(accountId: string, sessionId: string, entry: StepHistoryEntry): Promise<void> {
    const row = {
      session_id: sessionId,
      step: entry.step,
      account_id: accountId,
      at: Date.parse(entry.at),
      entry: JSON.stringify(entry),
    };
    await this.db
      .insertInto('step_history')
      .values(row)
      .onConflict((oc) => oc.columns(['session_id', 'step']).doUpdateSet({ at: row.at, entry: row.entry }))
      .execute();
  }

  /** The session's steps, oldest first; none for another account's session. */
  async forSession(accountId: string, sessionId: string): Promise<StepHistoryEntry[]> {
    const rows = await this.db
      .selectFrom('step_history')
      .select('entry')
      .where('session_id', '=', sessionId)
      .where('account_id', '=', accountId)
      .orderBy('step')
      .execute();
    return rows.map((row) => StepHistoryEntry.parse(JSON.parse(row.entry)));
  }

  /** The account's sessions with recorded steps, most recently active first. */
  async recentSessions(
    accountId: string,
    limit: number,
  ): Promise<{ sessionId: string; steps: number; firstAt: number; lastAt: number }[]> {
    const rows = await this.db
      .selectFrom('step_history')
      .select((eb) => [
        'session_id',
        eb.fn.countAll<number | string | bigint>().as('steps'),
        eb.fn.min<number | string>('at').as('first_at'),
        eb.fn.max<number | string>('at').as('last_at'),
      ])
      .where('account_id', '=', accountId)
      .groupBy('session_id')
      .orderBy('last_at', 'desc')
      .limit(limit)
      .execute();
    // Aggregates come back as strings on Postgres.
    return rows.map((r) => ({
      sessionId: r.session_id,
      steps: Number(r.steps),
      firstAt: Number(r.first_at),
      lastAt: Number(r.last_at),
    }));
  }

  /** Forgets steps that started before `before` (ms); answers how many. */
  async prune(before: number): Promise<number> {
    const result = await this.db.deleteFrom('step_history').where('at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows ?? 0);
  }
}
