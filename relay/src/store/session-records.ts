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
  /** Whether it is parked (its state in the store until its next use). */
  parked: boolean;
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
  parked: row.parked !== null,
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
        parked: null,
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
      .set({ ended_at: at, end_reason: reason, parked: null })
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .execute();
  }

  /**
   * Marks the live sessions a relay had open as ended (`reason`): at its start, since they lived in its
   * memory. Parked ones are in the store and come back on their next use. Answers how many.
   */
  async endAllOf(nodeId: string, reason: string, at = Date.now()): Promise<number> {
    const result = await this.db
      .updateTable('session_records')
      .set({ ended_at: at, end_reason: reason })
      .where('node_id', '=', nodeId)
      .where('ended_at', 'is', null)
      .where('parked', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Keeps what brings a parked session back (`state`, JSON); it was last used at `lastUsedAt`. */
  async park(id: string, state: string, lastUsedAt: number, url: string): Promise<void> {
    await this.db
      .updateTable('session_records')
      .set({ parked: state, last_used_at: lastUsedAt, url })
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .execute();
  }

  /** A parked session of the account that has not ended: its record and kept state. */
  async parked(accountId: string, id: string): Promise<{ record: SessionRecord; state: string } | undefined> {
    const row = await this.db
      .selectFrom('session_records')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('ended_at', 'is', null)
      .where('parked', 'is not', null)
      .executeTakeFirst();
    return row?.parked ? { record: toRecord(row), state: row.parked } : undefined;
  }

  /** The session is live again on `nodeId`: its kept state goes. */
  async unpark(id: string, nodeId: string): Promise<void> {
    await this.db.updateTable('session_records').set({ parked: null, node_id: nodeId }).where('id', '=', id).execute();
  }

  /**
   * Ends a parked session as expired, unless it was used since `lastUsedAt` or is live again (another
   * relay brought it back). Answers whether it ended.
   */
  async expireParked(id: string, lastUsedAt: number, at = Date.now()): Promise<boolean> {
    const result = await this.db
      .updateTable('session_records')
      .set({ ended_at: at, end_reason: 'expired', parked: null })
      .where('id', '=', id)
      .where('parked', 'is not', null)
      .where('last_used_at', '=', lastUsedAt)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Ends every parked session idle since before `before` (ms) as expired; answers how many. */
  async expireParkedBefore(before: number, at = Date.now()): Promise<number> {
    const result = await this.db
      .updateTable('session_records')
      .set({ ended_at: at, end_reason: 'expired', parked: null })
      .where('parked', 'is not', null)
      .where('last_used_at', '<', before)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * The account's sessions that have not ended, on any relay: live ones, and parked ones used since
   * `idleSince` (older parked ones have expired, whether or not a sweep has said so yet).
   */
  async active(accountId: string, idleSince: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('session_records')
      .select('id')
      .where('account_id', '=', accountId)
      .where('ended_at', 'is', null)
      .where((eb) => eb.or([eb('parked', 'is', null), eb('last_used_at', '>=', idleSince)]))
      .orderBy('created_at')
      .execute();
    return rows.map((r) => r.id);
  }

  /** The relays holding live sessions, as the records have it (to find the ones that stopped). */
  async liveNodes(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('session_records')
      .select('node_id')
      .distinct()
      .where('ended_at', 'is', null)
      .where('parked', 'is', null)
      .execute();
    return rows.map((r) => r.node_id);
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
