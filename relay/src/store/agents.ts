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
  /** The temperature of its calls that give none; null: the model's default. */
  temperature: number | null;
  /** The most steps a browse with it runs (the call's max_steps, if lower, wins). */
  maxSteps: number | null;
  /** The skills that apply to it (by id); null: every matching skill of the account. */
  skillIds: string[] | null;
}

/** What a profile is made of, all but its name and instructions optional. */
export interface AgentSettings {
  name: string;
  instructions: string;
  defaultMode?: AgentMode | null;
  temperature?: number | null;
  maxSteps?: number | null;
  skillIds?: string[] | null;
}

const toProfile = (row: AgentsTable): AgentProfile => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  instructions: row.instructions,
  defaultMode: row.default_mode,
  createdAt: row.created_at,
  temperature: row.temperature === null ? null : Number(row.temperature),
  maxSteps: row.max_steps === null ? null : Number(row.max_steps),
  skillIds: row.skill_ids === null ? null : (JSON.parse(row.skill_ids) as string[]),
});

export class Agents {
  constructor(private readonly db: Db) {}

  async create(accountId: string, profile: AgentSettings): Promise<AgentProfile> {
    const row: AgentsTable = {
      id: `agt_${randomBase62(96)}`,
      account_id: accountId,
      name: profile.name,
      instructions: profile.instructions,
      default_mode: profile.defaultMode ?? null,
      created_at: creationTime(),
      temperature: profile.temperature ?? null,
      max_steps: profile.maxSteps ?? null,
      skill_ids: profile.skillIds ? JSON.stringify(profile.skillIds) : null,
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

  /** Changes what is given of the profile; undefined when the account has no such profile. */
  async update(accountId: string, id: string, changes: Partial<AgentSettings>): Promise<AgentProfile | undefined> {
    const set: Partial<AgentsTable> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.instructions !== undefined) set.instructions = changes.instructions;
    if (changes.defaultMode !== undefined) set.default_mode = changes.defaultMode;
    if (changes.temperature !== undefined) set.temperature = changes.temperature;
    if (changes.maxSteps !== undefined) set.max_steps = changes.maxSteps;
    if (changes.skillIds !== undefined) set.skill_ids = changes.skillIds ? JSON.stringify(changes.skillIds) : null;
    if (Object.keys(set).length > 0) {
      const result = await this.db
        .updateTable('agents')
        .set(set)
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return undefined;
    }
    return this.get(accountId, id);
  }

  async remove(accountId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('agents')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
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
