import type { AgentMode, BrowserParams } from '@tandem/shared';
import { checkUrl } from '../browser/url-policy';
import { viewportOf } from '../browser/viewport';
import { BadRequest } from '../errors';
import { quote } from '../quote';
import type { Services } from '../services';
import type { Session } from '../sessions/session';
import type { AgentProfile } from '../store/agents';

/** The agent profile named by `agent_id`, or 400 when this account has none by that id. */
export async function resolveProfile(
  services: Services,
  accountId: string,
  agentId: string | undefined,
): Promise<AgentProfile | undefined> {
  if (agentId === undefined) return undefined;
  const profile = await services.store.agents.get(accountId, agentId);
  if (!profile) {
    throw new BadRequest(
      `Unknown agent_id ${quote(agentId)}. Create the agent profile in the console first, or omit agent_id.`,
    );
  }
  return profile;
}

/** The speed mode of a call: the request's, else the session's, else the profile's, else fast. */
export function modeOf(request: AgentMode | undefined, session: Session, profile: AgentProfile | undefined): AgentMode {
  return request ?? session.info.mode ?? profile?.defaultMode ?? 'fast';
}

type PrepareRequest = { url?: string | undefined; browser_params?: BrowserParams | undefined };

/** Applies the optional url and browser_params of a call before the agent runs. */
export async function prepareSession(services: Services, session: Session, request: PrepareRequest): Promise<void> {
  const apply = await checkPreparation(services, session, request);
  await apply();
}

/**
 * Checks the optional url and browser_params of a call and returns the work that applies them. The
 * checks (URL policy) run at once, so a bad request still gets a plain HTTP error; the returned
 * navigation runs when the caller is ready for it — for a stream, after the first chunk went out.
 */
export async function checkPreparation(
  services: Services,
  session: Session,
  request: PrepareRequest,
): Promise<() => Promise<void>> {
  // A local session's browser is the user's own: their network is theirs to open.
  const guard = session.info.local ? undefined : services.guard;
  const url = request.url ? await checkUrl(request.url, guard) : undefined;
  return async () => {
    if (request.browser_params) await session.driver.setViewport(viewportOf(request.browser_params));
    if (url) await session.driver.navigate(url.href);
  };
}
