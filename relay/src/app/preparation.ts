import type { BrowserParams } from '@tandem/shared';
import { checkUrl } from '../browser/url-policy';
import { viewportOf } from '../browser/viewport';
import type { NetworkGuard } from '../network/network-guard';
import { guardrailCheck } from '../sessions/guardrails';
import type { Session } from '../sessions/session';

type PrepareRequest = { url?: string | undefined; browser_params?: BrowserParams | undefined };

/**
 * Checks the optional url and browser_params of a call on an existing session and returns the work that
 * applies them. The checks (URL policy) run at once, so a bad request is refused before anything runs;
 * the returned navigation runs when the caller is ready for it — for a stream, after the first chunk.
 */
export async function checkPreparation(
  guard: NetworkGuard,
  session: Session,
  request: PrepareRequest,
): Promise<() => Promise<void>> {
  // A local session's browser is the user's own: their network is theirs to open.
  const rules = session.info.guardrails;
  const refuse = rules ? guardrailCheck(rules) : undefined;
  const url = request.url ? await checkUrl(request.url, session.info.local ? undefined : guard, refuse) : undefined;
  return async () => {
    if (request.browser_params) await session.driver.setViewport(viewportOf(request.browser_params));
    if (url) await session.driver.navigate(url.href);
  };
}
