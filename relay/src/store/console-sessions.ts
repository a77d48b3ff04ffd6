import { timingSafeEqual } from 'node:crypto';
import type { Db } from './database';
import { randomBase62, sha256 } from './secrets';

/** How long a console sign-in lasts without a new one: a working week. */
export const CONSOLE_SESSION_TTL_MS = 7 * 86_400_000;

/** A signed-in console: whose it is and the token its changes must carry. */
export interface ConsoleSession {
  /** The hash of its cookie token (what identifies it in the store). */
  id: string;
  accountId: string;
  csrf: string;
  expiresAt: number;
}

/** Whether two tokens are equal, in time that does not tell how much of them matched. */
export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Console sign-ins (cookie sessions). The cookie holds a random token; the store keeps its hash, so a
 * copy of the database signs nobody in. Each has its own CSRF token for the changes it makes.
 */
export class ConsoleSessions {
  constructor(private readonly db: Db) {}

  async create(accountId: string, now = Date.now()): Promise<{ token: string; session: ConsoleSession }> {
    const token = `tdc_${randomBase62(192)}`;
    const session: ConsoleSession = {
      id: sha256(token),
      accountId,
      csrf: randomBase62(128),
      expiresAt: now + CONSOLE_SESSION_TTL_MS,
    };
    await this.db
      .insertInto('console_sessions')
      .values({
        hash: session.id,
        account_id: accountId,
        csrf: session.csrf,
        created_at: now,
        expires_at: session.expiresAt,
      })
      .execute();
    // Expired sign-ins go as new ones are made.
    await this.db.deleteFrom('console_sessions').where('expires_at', '<', now).execute();
    return { token, session };
  }

  /** The live sign-in a cookie token names, or undefined. */
  async resolve(token: string, now = Date.now()): Promise<ConsoleSession | undefined> {
    const row = await this.db
      .selectFrom('console_sessions')
      .select(['hash', 'account_id', 'csrf', 'expires_at'])
      .where('hash', '=', sha256(token))
      .executeTakeFirst();
    if (!row || Number(row.expires_at) <= now) return undefined;
    return { id: row.hash, accountId: row.account_id, csrf: row.csrf, expiresAt: Number(row.expires_at) };
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('console_sessions').where('hash', '=', id).execute();
  }

  /** Ends the account's sign-ins, but for `keep` (the one changing the password). */
  async removeForAccount(accountId: string, keep?: string): Promise<void> {
    let query = this.db.deleteFrom('console_sessions').where('account_id', '=', accountId);
    if (keep) query = query.where('hash', '!=', keep);
    await query.execute();
  }
}
