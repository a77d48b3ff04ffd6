import type { AgentMode } from '@tandem/shared';
import type { Db } from './database';
import { randomBase62 } from './secrets';

/** An agent profile chosen with `agent_id`: standing instructions and a default speed mode. */
export interface AgentProfile {
  id: string;
  accountId: string;
  name: string;
  instructions: string;
  defaultMode: AgentMode | null;
  createdAt: number;
}

interface AgentRow {
  id: string;
  account_id: string;
  name: string;
  instructions: string;
  default_mode: AgentMode | null;
  created_at: number;
}

const toProfile = (row: AgentRow): AgentProfile => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  instructions: row.instructions,
  defaultMode: row.default_mode,
  createdAt: row.created_at,
});

export class Agents {
  constructor(private readonly db: Db) {}

  create(
    accountId: string,
    profile: { name: string; instructions: string; defaultMode?: AgentMode | null },
  ): AgentProfile {
    const row: AgentRow = {
      id: `agt_${randomBase62(96)}`,
      account_id: accountId,
      name: profile.name,
      instructions: profile.instructions,
      default_mode: profile.defaultMode ?? null,
      created_at: Date.now(),
    };
    this.db
      .prepare(
        'INSERT INTO agents (id, account_id, name, instructions, default_mode, created_at) VALUES (@id, @account_id, @name, @instructions, @default_mode, @created_at)',
      )
      .run(row);
    return toProfile(row);
  }

  /** The account's profile with this id (another account's profile is not found). */
  get(accountId: string, id: string): AgentProfile | undefined {
    const row = this.db.prepare('SELECT * FROM agents WHERE id = ? AND account_id = ?').get(id, accountId) as
      | AgentRow
      | undefined;
    return row && toProfile(row);
  }

  list(accountId: string): AgentProfile[] {
    return (
      this.db.prepare('SELECT * FROM agents WHERE account_id = ? ORDER BY created_at').all(accountId) as AgentRow[]
    ).map(toProfile);
  }
}
