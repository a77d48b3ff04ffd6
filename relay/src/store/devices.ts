import type { Db } from './database';
import { randomBase62, sha256 } from './secrets';

/** A browser signed in with the extension (local mode). */
export interface DeviceRecord {
  id: string;
  accountId: string;
  name: string;
  createdAt: number;
  lastSeenAt: number | null;
}

interface DeviceRow {
  id: string;
  account_id: string;
  name: string;
  hash: string;
  created_at: number;
  last_seen_at: number | null;
  revoked_at: number | null;
}

const TOKEN_PREFIX = 'tdd_';
/** last_seen_at is a hint for people: written at most once a minute. */
const TOUCH_INTERVAL_MS = 60_000;

const toRecord = (row: DeviceRow): DeviceRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
});

/** Device tokens, stored as SHA-256 hashes; the token itself is shown once, when issued. Revocable. */
export class Devices {
  constructor(private readonly db: Db) {}

  issue(accountId: string, name: string): { token: string; record: DeviceRecord } {
    const token = `${TOKEN_PREFIX}${randomBase62(192)}`;
    const row: DeviceRow = {
      id: `dev_${randomBase62(96)}`,
      account_id: accountId,
      name,
      hash: sha256(token),
      created_at: Date.now(),
      last_seen_at: null,
      revoked_at: null,
    };
    this.db
      .prepare(
        'INSERT INTO devices (id, account_id, name, hash, created_at, last_seen_at, revoked_at) VALUES (@id, @account_id, @name, @hash, @created_at, @last_seen_at, @revoked_at)',
      )
      .run(row);
    return { token, record: toRecord(row) };
  }

  /** The device when the token is valid and not revoked; records that it was seen. */
  resolve(token: string): DeviceRecord | undefined {
    const row = this.db.prepare('SELECT * FROM devices WHERE hash = ? AND revoked_at IS NULL').get(sha256(token)) as
      | DeviceRow
      | undefined;
    if (!row) return undefined;
    const now = Date.now();
    if (row.last_seen_at === null || now - row.last_seen_at > TOUCH_INTERVAL_MS) {
      this.db.prepare('UPDATE devices SET last_seen_at = ? WHERE id = ?').run(now, row.id);
      row.last_seen_at = now;
    }
    return toRecord(row);
  }

  list(accountId: string): DeviceRecord[] {
    const rows = this.db
      .prepare('SELECT * FROM devices WHERE account_id = ? AND revoked_at IS NULL ORDER BY created_at')
      .all(accountId) as DeviceRow[];
    return rows.map(toRecord);
  }

  revoke(accountId: string, id: string): boolean {
    return (
      this.db
        .prepare('UPDATE devices SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL')
        .run(Date.now(), id, accountId).changes > 0
    );
  }
}
