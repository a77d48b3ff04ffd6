import type { AgentMode, BrowserParams } from '@tandem/shared';
import { checkUrl } from '../browser/url-policy';
import { viewportOf } from '../browser/viewport';
import { BadRequest } from '../errors';
import type { Services } from '../services';
import type { Session } from '../sessions/session';
import type { AgentProfile } from '../store/agents';

/** The agent profile named by `agent_id`, or 400 when this account has none by that id. */
export function resolveProfile(
  services: Services,
  accountId: string,
  agentId: string | undefined,
): AgentProfile | undefined {
  if (agentId === undefined) return undefined;
  const profile = services.store.agents.get(accountId, agentId);
  if (!profile) {
    throw new BadRequest(
      `Unknown agent_id "${agentId}". Create the agent profile in the console first, or omit agent_id.`,
    );
  }
  return profile;
}

/** The speed mode of a call: the request's, else the session's, else the profile's, else fast. */
export function modeOf(request: AgentMode | undefined, session: Session, profile: AgentProfile | undefined): AgentMode {
  return request ?? session.info.mode ?? profile?.defaultMode ?? 'fast';
}

/** Applies the optional url and browser_params of a call before the agent runs. */
export async function prepareSession(
  services: Services,
  session: Session,
  request: { url?: string | undefined; browser_params?: BrowserParams | undefined },
): Promise<void> {
  if (request.browser_params) await session.driver.setViewport(viewportOf(request.browser_params));
  if (request.url) {
    // A local session's browser is the user's own: their network is theirs to open.
    const allowPrivateNetwork = session.info.local || services.config.TANDEM_ALLOW_PRIVATE_NETWORK;
    const url = await checkUrl(request.url, { allowPrivateNetwork });
    await session.driver.navigate(url.href);
  }
}

export function assertRemote(local: boolean | undefined): void {
  if (local) {
    throw new BadRequest(
      'local: true needs the Tandem browser extension, which this version of the relay cannot reach yet. Send local: false to run in the relay’s own browser.',
    );
  }
}
