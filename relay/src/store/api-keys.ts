import { creationTime } from './clock';
import type { Db } from './database';
import type { ApiKeysTable } from './schema';
import { randomBase62, sha256 } from './secrets';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  /** The first characters of the key, safe to show in lists. */
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

const KEY_PREFIX = 'tdm_';
const VISIBLE_CHARS = 12;
/** last_used_at is a hint for people; writing it at most once a minute keeps hot keys off the disk. */
const TOUCH_INTERVAL_MS = 60_000;

const toRecord = (row: ApiKeysTable): ApiKeyRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
});

/** API keys are stored as SHA-256 hashes; the key itself is shown once, when created. */
export class ApiKeys {
  constructor(private readonly db: Db) {}

  async create(accountId: string, name: string): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = `${KEY_PREFIX}${randomBase62(192)}`;
    const row = newRow(accountId, name, key);
    await this.db.insertInto('api_keys').values(row).execute();
    return { key, record: toRecord(row) };
  }

  /** Makes sure this exact key exists for the account (TANDEM_BOOTSTRAP_KEY); true when it was added. */
  async ensure(accountId: string, key: string, name: string): Promise<boolean> {
    const hash = sha256(key);
    const existing = await this.db
      .selectFrom('api_keys')
      .select(['id', 'revoked_at'])
      .where('hash', '=', hash)
      .executeTakeFirst();
    if (existing) {
      if (existing.revoked_at !== null)
        await this.db.updateTable('api_keys').set({ revoked_at: null }).where('id', '=', existing.id).execute();
      return false;
    }
    // Another relay starting at the same time may add it first: then it exists, which is all we want.
    const result = await this.db
      .insertInto('api_keys')
      .values(newRow(accountId, name, key))
      .onConflict((oc) => oc.column('hash').doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  /** The key's record when it is valid and not revoked; records its use. */
  async resolve(key: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('hash', '=', sha256(key))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    const now = Date.now();
    if (row.last_used_at === null || now - row.last_used_at > TOUCH_INTERVAL_MS) {
      await this.db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row.id).execute();
      row.last_used_at = now;
    }
    return toRecord(row);
  }

  /** The account's live keys, oldest first; with `revoked`, the revoked ones too (usage still names them). */
  async list(accountId: string, options: { revoked?: boolean } = {}): Promise<ApiKeyRecord[]> {
    let query = this.db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId);
    if (!options.revoked) query = query.where('revoked_at', 'is', null);
    const rows = await query.orderBy('created_at').execute();
    return rows.map(toRecord);
  }

  async revoke(accountId: string, id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: Date.now() })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}

function newRow(accountId: string, name: string, key: string): ApiKeysTable {
  return {
    id: `key_${randomBase62(96)}`,
    account_id: accountId,
    name,
    prefix: key.slice(0, VISIBLE_CHARS),
    hash: sha256(key),
    created_at: creationTime(),
    last_used_at: null,
    revoked_at: null,
  };
}
