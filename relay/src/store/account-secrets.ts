import { creationTime } from './clock';
import type { Db } from './database';
import { hostMatches } from './skills';

/** A stored secret as lists show it: never its value. */
export interface SecretEntry {
  name: string;
  /** Where it may be typed: a skill-style host pattern (`example.com`, `*.example.com`); null for any site. */
  hostPattern: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A secret's value with the sites it may be typed on, for the one place that types it. */
export interface SecretValue {
  value: string;
  hostPattern: string | null;
}

/** Whether a secret may be typed on a page of `host`. */
export function secretAllowedOn(secret: SecretValue, host: string): boolean {
  return secret.hostPattern === null || (host !== '' && hostMatches(secret.hostPattern, host));
}

/**
 * The account's named secrets, used as `<secret:name>` in a cmd. Write-only from the outside: `list`
 * shows names and patterns, and only `resolve` (for the agent, at the moment it types) reads values.
 */
export class AccountSecrets {
  constructor(private readonly db: Db) {}

  /** Stores `value` under `name` (replacing an earlier one), typed only on hosts `hostPattern` matches. */
  async set(accountId: string, name: string, value: string, hostPattern: string | null = null): Promise<void> {
    const now = creationTime();
    const pattern = hostPattern?.trim() || null;
    await this.db
      .insertInto('secrets')
      .values({ account_id: accountId, name, value, host_pattern: pattern, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.columns(['account_id', 'name']).doUpdateSet({ value, host_pattern: pattern, updated_at: now }),
      )
      .execute();
  }

  async list(accountId: string): Promise<SecretEntry[]> {
    const rows = await this.db
      .selectFrom('secrets')
      .select(['name', 'host_pattern', 'created_at', 'updated_at'])
      .where('account_id', '=', accountId)
      .orderBy('name')
      .execute();
    return rows.map((row) => ({
      name: row.name,
      hostPattern: row.host_pattern,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }));
  }

  async remove(accountId: string, name: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('secrets')
      .where('account_id', '=', accountId)
      .where('name', '=', name)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** The values of those of `names` the account has; a name it has not is missing from the map. */
  async resolve(accountId: string, names: readonly string[]): Promise<Map<string, SecretValue>> {
    if (names.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('secrets')
      .select(['name', 'value', 'host_pattern'])
      .where('account_id', '=', accountId)
      .where('name', 'in', names)
      .execute();
    return new Map(rows.map((row) => [row.name, { value: row.value, hostPattern: row.host_pattern }]));
  }
}
