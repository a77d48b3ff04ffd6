import { creationTime } from './clock';
import type { Db } from './database';
import type { DevicesTable } from './schema';
import { randomBase62, sha256 } from './secrets';

/** A browser signed in with the extension (local mode). */
export interface DeviceRecord {
  id: string;
  accountId: string;
  name: string;
  createdAt: number;
  lastSeenAt: number | null;
}

const TOKEN_PREFIX = 'tdd_';
/** last_seen_at is a hint for people: written at most once a minute. */
const TOUCH_INTERVAL_MS = 60_000;

const toRecord = (row: DevicesTable): DeviceRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
});

/** Device tokens, stored as SHA-256 hashes; the token itself is shown once, when issued. Revocable. */
export class Devices {
  constructor(private readonly db: Db) {}

  async issue(accountId: string, name: string): Promise<{ token: string; record: DeviceRecord }> {
    const token = `${TOKEN_PREFIX}${randomBase62(192)}`;
    const row: DevicesTable = {
      id: `dev_${randomBase62(96)}`,
      account_id: accountId,
      name,
      hash: sha256(token),
      created_at: creationTime(),
      last_seen_at: null,
      revoked_at: null,
    };
    await this.db.insertInto('devices').values(row).execute();
    return { token, record: toRecord(row) };
  }

  /** The device when the token is valid and not revoked; records that it was seen. */
  async resolve(token: string): Promise<DeviceRecord | undefined> {
    const row = await this.db
      .selectFrom('devices')
      .selectAll()
      .where('hash', '=', sha256(token))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    const now = Date.now();
    if (row.last_seen_at === null || now - row.last_seen_at > TOUCH_INTERVAL_MS) {
      await this.db.updateTable('devices').set({ last_seen_at: now }).where('id', '=', row.id).execute();
      row.last_seen_at = now;
    }
    return toRecord(row);
  }

  async list(accountId: string): Promise<DeviceRecord[]> {
    const rows = await this.db
      .selectFrom('devices')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at')
      .execute();
    return rows.map(toRecord);
  }

  async revoke(accountId: string, id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('devices')
      .set({ revoked_at: Date.now() })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
