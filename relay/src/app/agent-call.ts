import type { AgentMode } from '@tandem/shared';
import type { AgentSession } from '../agent/conversation';
import type { AgentDeps } from '../agent/steps';
import { resolveSecrets, secretsText } from '../agent/task-secrets';
import type { NetworkGuard } from '../network/network-guard';
import type { AccountSecrets, SecretValue } from '../store/account-secrets';
import type { AgentProfile } from '../store/agents';
import { type ProfileStore, resolveProfile } from './profiles';
import type { QuotaGate } from './quota';
import type { Screenshots } from './screenshots';
import type { SessionOpener } from './sessions';

/** What the agent's use cases (browse, step) need. */
export interface AgentCallDeps {
  opener: SessionOpener;
  profiles: ProfileStore;
  /** The account's `<secret:name>` values (the store's secrets). */
  secrets: Pick<AccountSecrets, 'resolve'>;
  agent: AgentDeps;
  screenshots: Screenshots;
  /** The address policy a continued remote session's new URL is checked against. */
  guard: NetworkGuard;
  quota: QuotaGate;
}

/** The parts of a browse or step request that decide who acts and with which secrets. */
export interface AgentCall {
  cmd: string;
  agent_id?: string | undefined;
  mode?: AgentMode | undefined;
  optional_params?: { secrets?: Readonly<Record<string, string>> | undefined } | undefined;
}

/**
 * The agent profile (the call's, else the one the session was created with) and the secret values of a
 * call, each refused before anything runs when it names something this account does not have, as is a
 * call of an account whose monthly step quota is used up.
 */
export async function callSetup(
  deps: AgentCallDeps,
  accountId: string,
  request: AgentCall,
  session: AgentSession | undefined,
): Promise<{ profile: AgentProfile | undefined; secrets: Map<string, SecretValue> }> {
  await deps.quota.check(accountId);
  const profile = await resolveProfile(deps.profiles, accountId, request.agent_id ?? session?.info.agentId);
  const secrets = await resolveSecrets(
    deps.secrets,
    accountId,
    secretsText(request.cmd, session?.conversation),
    request.optional_params?.secrets,
  );
  return { profile, secrets };
}
