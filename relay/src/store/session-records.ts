import type { Db } from './database';
import type { SessionRecordsTable } from './schema';

/** What the store keeps of a session, live or ended, for the console's lists. */
export interface SessionRecord {
  id: string;
  accountId: string;
  nodeId: string;
  local: boolean;
  createdAt: number;
  lastUsedAt: number;
  url: string;
  steps: number;
  status: string | null;
  lastStepAt: number | null;
  screenshot: string | null;
  endedAt: number | null;
  endReason: string | null;
}

const toRecord = (row: SessionRecordsTable): SessionRecord => ({
  id: row.id,
  accountId: row.account_id,
  nodeId: row.node_id,
  local: Number(row.local) === 1,
  createdAt: Number(row.created_at),
  lastUsedAt: Number(row.last_used_at),
  url: row.url,
  steps: Number(row.steps),
  status: row.status,
  lastStepAt: row.last_step_at === null ? null : Number(row.last_step_at),
  screenshot: row.screenshot,
  endedAt: row.ended_at === null ? null : Number(row.ended_at),
  endReason: row.end_reason,
});

/**
 * A row per session, written as it opens, steps and ends: the console lists sessions from it after they
 * ended and across restarts, when the relay's memory no longer has them.
 */
export class SessionRecords {
  constructor(private readonly db: Db) {}

  async opened(session: { id: string; accountId: string; nodeId: string; local: boolean; url: string; at: number }) {
    await this.db
      .insertInto('session_records')
      .values({
        id: session.id,
        account_id: session.accountId,
        node_id: session.nodeId,
        local: session.local ? 1 : 0,
        created_at: session.at,
        last_used_at: session.at,
        url: session.url,
        steps: 0,
        status: null,
        last_step_at: null,
        screenshot: null,
        ended_at: null,
        end_reason: null,
      })
      .execute();
  }

  /** An operation on it ended: its page and time now. */
  async used(id: string, change: { url: string; at: number }): Promise<void> {
    await this.db
      .updateTable('session_records')
      .set({ url: change.url, last_used_at: change.at })
      .where('id', '=', id)
      .execute();
  }

  /** An agent step ended: the session's step count, latest status, page and screenshot. */
  async stepped(
    id: string,
    step: { step: number; status: string; url: string; at: number; screenshot?: string | undefined },
  ): Promise<void> {
    await this.db
      .updateTable('session_records')
      .set((eb) => ({
        steps: eb('steps', '+', 1),
        status: step.status,
        url: step.url,
        last_step_at: step.at,
        last_used_at: step.at,
        ...(step.screenshot ? { screenshot: step.screenshot } : {}),
      }))
      .where('id', '=', id)
      .execute();
  }

  async ended(id: string, reason: string, at = Date.now()): Promise<void> {
    await this.db
      .updateTable('session_records')
      .set({ ended_at: at, end_reason: reason })
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .execute();
  }

  /**
   * Marks the sessions a relay had open as ended (`reason`): at its start, since the sessions of its last
   * run lived in its memory. Answers how many.
   */
  async endAllOf(nodeId: string, reason: string, at = Date.now()): Promise<number> {
    const result = await this.db
      .updateTable('session_records')
      .set({ ended_at: at, end_reason: reason })
      .where('node_id', '=', nodeId)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async get(accountId: string, id: string): Promise<SessionRecord | undefined> {
    const row = await this.db
      .selectFrom('session_records')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** The account's sessions, most recently used first. */
  async recent(accountId: string, limit: number): Promise<SessionRecord[]> {
    const rows = await this.db
      .selectFrom('session_records')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('last_used_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  /** Forgets sessions that ended before `before` (ms); answers how many. */
  async prune(before: number): Promise<number> {
    const result = await this.db.deleteFrom('session_records').where('ended_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows ?? 0);
  }
}
