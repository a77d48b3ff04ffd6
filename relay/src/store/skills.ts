import type { Db } from './database';
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

interface SkillRow {
  id: string;
  account_id: string;
  host_pattern: string;
  rule: string;
  created_at: number;
}

const toSkill = (row: SkillRow): Skill => ({
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

  add(accountId: string, hostPattern: string, rule: string): Skill {
    const row: SkillRow = {
      id: `skl_${randomBase62(96)}`,
      account_id: accountId,
      host_pattern: hostPattern,
      rule,
      created_at: Date.now(),
    };
    this.db
      .prepare(
        'INSERT INTO skills (id, account_id, host_pattern, rule, created_at) VALUES (@id, @account_id, @host_pattern, @rule, @created_at)',
      )
      .run(row);
    return toSkill(row);
  }

  list(accountId: string): Skill[] {
    const rows = this.db
      .prepare('SELECT * FROM skills WHERE account_id = ? ORDER BY created_at')
      .all(accountId) as SkillRow[];
    return rows.map(toSkill);
  }

  /** The rules that apply on `url`, oldest first. */
  matching(accountId: string, url: string): string[] {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return [];
    }
    return this.list(accountId)
      .filter((skill) => hostMatches(skill.hostPattern, host))
      .map((skill) => skill.rule);
  }

  remove(accountId: string, id: string): boolean {
    return this.db.prepare('DELETE FROM skills WHERE id = ? AND account_id = ?').run(id, accountId).changes > 0;
  }
}
