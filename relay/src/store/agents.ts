import type { AgentMode } from '@tandem/shared';
import { creationTime } from './clock';
import type { Db } from './database';
import type { AgentsTable } from './schema';
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

const toProfile = (row: AgentsTable): AgentProfile => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  instructions: row.instructions,
  defaultMode: row.default_mode,
  createdAt: row.created_at,
});

export class Agents {
  constructor(private readonly db: Db) {}

  async create(
    accountId: string,
    profile: { name: string; instructions: string; defaultMode?: AgentMode | null },
  ): Promise<AgentProfile> {
    const row: AgentsTable = {
      id: `agt_${randomBase62(96)}`,
      account_id: accountId,
      name: profile.name,
      instructions: profile.instructions,
      default_mode: profile.defaultMode ?? null,
      created_at: creationTime(),
    };
    await this.db.insertInto('agents').values(row).execute();
    return toProfile(row);
  }

  /** The account's profile with this id (another account's profile is not found). */
  async get(accountId: string, id: string): Promise<AgentProfile | undefined> {
    const row = await this.db
      .selectFrom('agents')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row && toProfile(row);
  }

  async list(accountId: string): Promise<AgentProfile[]> {
    const rows = await this.db
      .selectFrom('agents')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .execute();
    return rows.map(toProfile);
  }
}
