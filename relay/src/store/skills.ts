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
  createdAt: number;
}

const toSkill = (row: SkillsTable): Skill => ({
  id: row.id,
  accountId: row.account_id,
  hostPattern: row.host_pattern,
  rule: row.rule,
  createdAt: row.created_at,
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

  async add(accountId: string, hostPattern: string, rule: string): Promise<Skill> {
    const row: SkillsTable = {
      id: `skl_${randomBase62(96)}`,
      account_id: accountId,
      host_pattern: hostPattern,
      rule,
      created_at: creationTime(),
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

  /** The skills that apply on `url`, oldest first; with `only`, just those of these skills. */
  async applying(accountId: string, url: string, only?: readonly string[] | null): Promise<Skill[]> {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return [];
    }
    return (await this.list(accountId)).filter(
      (skill) => hostMatches(skill.hostPattern, host) && (!only || only.includes(skill.id)),
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
