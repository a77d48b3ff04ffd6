import { creationTime } from './clock';
import type { Db } from './database';
import type { SkillsTable } from './schema';
import { randomBase62 } from './secrets';

/** A natural-language rule for the agent on matching sites ("never click Buy now without asking"). */
export interface Skill {
  id: string;
  accountId: string;
  /** `example.com` (that host and its subdomains), `*.example.com` (subdomains only) or `*` (every site). */
  hostPattern: string;
  rule: string;
  /** A disabled skill is kept but the agent does not read it. */
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/** What an edit may change of a skill. */
export interface SkillChanges {
  hostPattern?: string | undefined;
  rule?: string | undefined;
  enabled?: boolean | undefined;
}

const toSkill = (row: SkillsTable): Skill => ({
  id: row.id,
  accountId: row.account_id,
  hostPattern: row.host_pattern,
  rule: row.rule,
  enabled: Number(row.enabled) === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at ?? row.created_at,
});

/** Whether a host matches a skill's pattern. */
export function hostMatches(pattern: string, host: string): boolean {
  const p = pattern
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '');
  const h = host.toLowerCase();
  if (p === '*') return true;
  if (p.startsWith('*.')) return h.endsWith(p.slice(1));
  return h === p || h.endsWith(`.${p}`);
}

export class Skills {
  constructor(private readonly db: Db) {}

  async add(accountId: string, hostPattern: string, rule: string, enabled = true): Promise<Skill> {
    const now = creationTime();
    const row: SkillsTable = {
      id: `skl_${randomBase62(96)}`,
      account_id: accountId,
      host_pattern: hostPattern,
      rule,
      created_at: now,
      enabled: enabled ? 1 : 0,
      updated_at: now,
    };
    await this.db.insertInto('skills').values(row).execute();
    return toSkill(row);
  }

  async list(accountId: string): Promise<Skill[]> {
    const rows = await this.db
      .selectFrom('skills')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .execute();
    return rows.map(toSkill);
  }

  /** The account's skill with this id (another account's is not found). */
  async get(accountId: string, id: string): Promise<Skill | undefined> {
    const row = await this.db
      .selectFrom('skills')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row && toSkill(row);
  }

  /** Changes what is given; undefined when the account has no such skill. */
  async update(accountId: string, id: string, changes: SkillChanges): Promise<Skill | undefined> {
    const set: Partial<SkillsTable> = { updated_at: Date.now() };
    if (changes.hostPattern !== undefined) set.host_pattern = changes.hostPattern;
    if (changes.rule !== undefined) set.rule = changes.rule;
    if (changes.enabled !== undefined) set.enabled = changes.enabled ? 1 : 0;
    const result = await this.db
      .updateTable('skills')
      .set(set)
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n ? this.get(accountId, id) : undefined;
  }

  /** The enabled skills that apply on `url`, oldest first; with `only`, just those of these skills. */
  async applying(accountId: string, url: string, only?: readonly string[] | null): Promise<Skill[]> {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return [];
    }
    return (await this.list(accountId)).filter(
      (skill) => skill.enabled && hostMatches(skill.hostPattern, host) && (!only || only.includes(skill.id)),
    );
  }

  /** Their rules: what the agent reads on `url`. */
  async matching(accountId: string, url: string, only?: readonly string[] | null): Promise<string[]> {
    return (await this.applying(accountId, url, only)).map((skill) => skill.rule);
  }

  async remove(accountId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('skills')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
