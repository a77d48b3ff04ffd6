import type { AgentInfo, AgentsResponse, CreateAgentRequest, Removed, UpdateAgentRequest } from '@tandem/shared';
import { BadRequest, NotFound } from '../errors';
import { clip, quote } from '../quote';
import type { AgentProfile, AgentSettings } from '../store/agents';

export interface AgentServiceDeps {
  agents: {
    create(accountId: string, profile: AgentSettings): Promise<AgentProfile>;
    get(accountId: string, id: string): Promise<AgentProfile | undefined>;
    list(accountId: string): Promise<AgentProfile[]>;
    update(accountId: string, id: string, changes: Partial<AgentSettings>): Promise<AgentProfile | undefined>;
    remove(accountId: string, id: string): Promise<boolean>;
  };
  /** The account's skills, to check the ids a profile names. */
  skills: { list(accountId: string): Promise<{ id: string }[]> };
}

const agentInfo = (p: AgentProfile): AgentInfo => ({
  id: p.id,
  name: p.name,
  instructions: p.instructions,
  default_mode: p.defaultMode,
  temperature: p.temperature,
  max_steps: p.maxSteps,
  skill_ids: p.skillIds,
  created_at: new Date(p.createdAt).toISOString(),
});

const noAgent = (id: string) =>
  new NotFound(`This account has no agent ${clip(id, 60)} (it may have been deleted). List them to see the ids.`);

/** Agent profiles: what `agent_id` names. */
export class AgentService {
  constructor(private readonly deps: AgentServiceDeps) {}

  async list(accountId: string): Promise<AgentsResponse> {
    return { agents: (await this.deps.agents.list(accountId)).map(agentInfo) };
  }

  async get(accountId: string, id: string): Promise<AgentInfo> {
    const profile = await this.deps.agents.get(accountId, id);
    if (!profile) throw noAgent(id);
    return agentInfo(profile);
  }

  async create(accountId: string, request: CreateAgentRequest): Promise<AgentInfo> {
    await this.checkSkills(accountId, request.skill_ids);
    return agentInfo(await this.deps.agents.create(accountId, settingsOf(request) as AgentSettings));
  }

  async update(accountId: string, id: string, request: UpdateAgentRequest): Promise<AgentInfo> {
    await this.checkSkills(accountId, request.skill_ids);
    const profile = await this.deps.agents.update(accountId, id, settingsOf(request));
    if (!profile) throw noAgent(id);
    return agentInfo(profile);
  }

  async remove(accountId: string, id: string): Promise<Removed> {
    if (!(await this.deps.agents.remove(accountId, id))) throw noAgent(id);
    return { id, removed: true };
  }

  /** A profile may only name the account's own skills. */
  private async checkSkills(accountId: string, ids: readonly string[] | null | undefined): Promise<void> {
    if (!ids?.length) return;
    const known = new Set((await this.deps.skills.list(accountId)).map((s) => s.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) {
      throw new BadRequest(
        `skill_ids names ${unknown.length === 1 ? 'a skill' : 'skills'} this account does not have: ${unknown
          .slice(0, 5)
          .map((id) => quote(clip(id, 60)))
          .join(', ')}. List the skills (GET /v1/console/skills) for their ids.`,
      );
    }
  }
}

/** The request's fields as the store names them; absent fields stay absent (an update leaves them). */
function settingsOf(request: UpdateAgentRequest): Partial<AgentSettings> {
  const settings: Partial<AgentSettings> = {};
  if (request.name !== undefined) settings.name = request.name;
  if (request.instructions !== undefined) settings.instructions = request.instructions;
  if (request.default_mode !== undefined) settings.defaultMode = request.default_mode;
  if (request.temperature !== undefined) settings.temperature = request.temperature;
  if (request.max_steps !== undefined) settings.maxSteps = request.max_steps;
  if (request.skill_ids !== undefined) settings.skillIds = request.skill_ids ? [...new Set(request.skill_ids)] : null;
  return settings;
}
