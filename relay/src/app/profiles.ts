import type { AgentMode } from '@tandem/shared';
import { DomainError } from '../errors';
import { quote } from '../quote';
import type { Session } from '../sessions/session';
import type { AgentProfile } from '../store/agents';

/** `agent_id` names no agent profile of this account. */
export class UnknownAgent extends DomainError {
  constructor(agentId: string) {
    super(
      'unknown_agent',
      `Unknown agent_id ${quote(agentId)}. Create the agent profile in the console first, or omit agent_id.`,
    );
  }
}

/** Where agent profiles are kept (the store's agents). */
export interface ProfileStore {
  get(accountId: string, id: string): Promise<AgentProfile | undefined>;
}

/** The agent profile named by `agent_id`, or UnknownAgent when this account has none by that id. */
export async function resolveProfile(
  profiles: ProfileStore,
  accountId: string,
  agentId: string | undefined,
): Promise<AgentProfile | undefined> {
  if (agentId === undefined) return undefined;
  const profile = await profiles.get(accountId, agentId);
  if (!profile) throw new UnknownAgent(agentId);
  return profile;
}

/** The speed mode of a call: the request's, else the session's, else the profile's, else fast. */
export function modeOf(request: AgentMode | undefined, session: Session, profile: AgentProfile | undefined): AgentMode {
  return request ?? session.info.mode ?? profile?.defaultMode ?? 'fast';
}
