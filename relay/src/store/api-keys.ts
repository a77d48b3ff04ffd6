import type { Db } from './database';
import { randomBase62, sha256 } from './secrets';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  /** The first characters of the key, safe to show in lists. */
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
}

interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

const KEY_PREFIX = 'tdm_';
const VISIBLE_CHARS = 12;
/** last_used_at is a hint for people; writing it at most once a minute keeps hot keys off the disk. */
const TOUCH_INTERVAL_MS = 60_000;

const toRecord = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/** API keys are stored as SHA-256 hashes; the key itself is shown once, when created. */
export class ApiKeys {
  constructor(private readonly db: Db) {}

  create(accountId: string, name: string): { key: string; record: ApiKeyRecord } {
    const key = `${KEY_PREFIX}${randomBase62(192)}`;
    return { key, record: this.insert(accountId, name, key) };
  }

  /** Makes sure this exact key exists for the account (TANDEM_BOOTSTRAP_KEY); true when it was added. */
  ensure(accountId: string, key: string, name: string): boolean {
    const existing = this.db.prepare('SELECT * FROM api_keys WHERE hash = ?').get(sha256(key)) as ApiKeyRow | undefined;
    if (existing) {
      if (existing.revoked_at !== null)
        this.db.prepare('UPDATE api_keys SET revoked_at = NULL WHERE id = ?').run(existing.id);
      return false;
    }
    this.insert(accountId, name, key);
    return true;
  }

  /** The key's record when it is valid and not revoked; records its use. */
  resolve(key: string): ApiKeyRecord | undefined {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE hash = ? AND revoked_at IS NULL').get(sha256(key)) as
      | ApiKeyRow
      | undefined;
    if (!row) return undefined;
    const now = Date.now();
    if (row.last_used_at === null || now - row.last_used_at > TOUCH_INTERVAL_MS) {
      this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, row.id);
      row.last_used_at = now;
    }
    return toRecord(row);
  }

  list(accountId: string): ApiKeyRecord[] {
    const rows = this.db
      .prepare('SELECT * FROM api_keys WHERE account_id = ? AND revoked_at IS NULL ORDER BY created_at')
      .all(accountId) as ApiKeyRow[];
    return rows.map(toRecord);
  }

  revoke(accountId: string, id: string): boolean {
    return (
      this.db
        .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL')
        .run(Date.now(), id, accountId).changes > 0
    );
  }

  private insert(accountId: string, name: string, key: string): ApiKeyRecord {
    const row: ApiKeyRow = {
      id: `key_${randomBase62(96)}`,
      account_id: accountId,
      name,
      prefix: key.slice(0, VISIBLE_CHARS),
      hash: sha256(key),
      created_at: Date.now(),
      last_used_at: null,
      revoked_at: null,
    };
    this.db
      .prepare(
        'INSERT INTO api_keys (id, account_id, name, prefix, hash, created_at, last_used_at, revoked_at) VALUES (@id, @account_id, @name, @prefix, @hash, @created_at, @last_used_at, @revoked_at)',
      )
      .run(row);
    return toRecord(row);
  }
}
