import { z } from 'zod';
import { AgentMode, Temperature } from './common';

// Agent profiles: what `agent_id` names in browse, create, step and retrieve.

const When = z.string().describe('ISO 8601, UTC.');

/** Standing instructions are read with every step: a page of text, not a book. */
export const MAX_AGENT_INSTRUCTIONS = 10_000;

const Name = z.string().trim().min(1).max(100).describe('Shown in lists.');
const Instructions = z
  .string()
  .trim()
  .max(MAX_AGENT_INSTRUCTIONS)
  .describe('Standing instructions the agent reads with every task it runs under this profile.');
const DefaultMode = AgentMode.nullable().describe('The mode of calls that name none; null: the relay default.');
const AgentTemperature = Temperature.nullable().describe("Temperature of calls that give none; null: the model's.");
const MaxSteps = z
  .int()
  .min(1)
  .max(1000)
  .nullable()
  .describe("The most steps a browse runs with it (a call's lower max_steps wins); null: the call's.");
const SkillIds = z
  .array(z.string().min(1).max(100))
  .max(500)
  .nullable()
  .describe('The skills that apply to it, by id; null: every enabled skill of the account that matches the page.');

export const AgentInfo = z
  .object({
    id: z.string().describe('What `agent_id` names.'),
    name: z.string(),
    instructions: z.string(),
    default_mode: AgentMode.nullable(),
    temperature: z.number().nullable(),
    max_steps: z.int().nullable(),
    skill_ids: z.array(z.string()).nullable(),
    created_at: When,
  })
  .meta({ id: 'AgentInfo' });
export type AgentInfo = z.infer<typeof AgentInfo>;

export const AgentsResponse = z.object({ agents: z.array(AgentInfo) }).meta({ id: 'AgentsResponse' });
export type AgentsResponse = z.infer<typeof AgentsResponse>;

export const CreateAgentRequest = z
  .object({
    name: Name,
    instructions: Instructions.default(''),
    default_mode: DefaultMode.default(null),
    temperature: AgentTemperature.default(null),
    max_steps: MaxSteps.default(null),
    skill_ids: SkillIds.default(null),
  })
  .meta({ id: 'CreateAgentRequest' });
export type CreateAgentRequest = z.infer<typeof CreateAgentRequest>;

export const UpdateAgentRequest = z
  .object({
    name: Name.optional(),
    instructions: Instructions.optional(),
    default_mode: DefaultMode.optional(),
    temperature: AgentTemperature.optional(),
    max_steps: MaxSteps.optional(),
    skill_ids: SkillIds.optional(),
  })
  .meta({ id: 'UpdateAgentRequest' });
export type UpdateAgentRequest = z.infer<typeof UpdateAgentRequest>;
