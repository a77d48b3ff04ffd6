import { randomInt } from 'node:crypto';
import type { Db } from './database';
import { sha256 } from './secrets';

/** No 0/O, 1/I/L: a code is read off one screen and typed into another. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 8;
/** How long a code can be used: enough to walk to the other browser. */
export const PAIRING_CODE_TTL_MS = 10 * 60_000;

/** The form a code is shown in (`ABCD-EFGH`); what users type is compared without dashes, spaces or case. */
const canonical = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

/**
 * One-time codes that sign the extension in instead of a password: made for an account, good once and
 * for ten minutes, stored as hashes.
 */
export class PairingCodes {
  constructor(private readonly db: Db) {}

  async create(accountId: string, now = Date.now()): Promise<{ code: string; expiresAt: number }> {
    let raw = '';
    for (let i = 0; i < LENGTH; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
    const expiresAt = now + PAIRING_CODE_TTL_MS;
    await this.db
      .insertInto('pairing_codes')
      .values({ hash: sha256(raw), account_id: accountId, expires_at: expiresAt, created_at: now })
      .execute();
    // Old codes go as new ones are made: the table only ever holds the last few minutes' codes.
    await this.db.deleteFrom('pairing_codes').where('expires_at', '<', now).execute();
    return { code: `${raw.slice(0, 4)}-${raw.slice(4)}`, expiresAt };
  }

  /** The account of a live code, which is used up by this call; undefined for any other code. */
  async redeem(code: string, now = Date.now()): Promise<string | undefined> {
    const hash = sha256(canonical(code));
    // Delete-returning in one statement, so two browsers racing with one code cannot both get in.
    const row = await this.db
      .deleteFrom('pairing_codes')
      .where('hash', '=', hash)
      .returning(['account_id', 'expires_at'])
      .executeTakeFirst();
    if (!row || Number(row.expires_at) < now) return undefined;
    return row.account_id;
  }
}
