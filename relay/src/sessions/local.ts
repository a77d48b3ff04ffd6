import { type CreateSessionRequest, restrictedPageMessage } from '@tandem/shared';
import { ExtensionDriver } from '../browser/extension-driver';
import { checkUrl, type HostRefusal } from '../browser/url-policy';
import type { Config } from '../config';
import { ExtensionCommandError } from '../gateway/errors';
import type { ExtensionGateway } from '../gateway/gateway';
import type { Logger } from '../logger';
import { type Guardrails, NO_GUARDRAILS } from '../store/guardrails';
import { guardrailCheck } from './guardrails';
import type { SessionManager } from './manager';
import type { Session } from './session';

type OpenRequest = Pick<CreateSessionRequest, 'url' | 'agent_id' | 'mode' | 'use_proxy'> & {
  guardrails?: Guardrails | undefined;
};

/** What opening a local session needs: the session directory and the extension gateway. */
export interface LocalOpenDeps<C> {
  sessions: SessionManager<C>;
  gateway: ExtensionGateway;
  logger: Logger;
  config: Pick<Config, 'TANDEM_NAVIGATION_TIMEOUT_MS'>;
}

/**
 * http(s) only; loopback and private hosts are fine, since the browser is the user's own. Browser and
 * extension pages get the extension's `restricted_page` answer rather than the generic scheme message.
 */
async function checkLocalUrl(url: string, refuse?: HostRefusal): Promise<URL> {
  const restricted = restrictedPageMessage(url);
  if (restricted) throw new ExtensionCommandError({ code: 'restricted_page', message: restricted });
  return checkUrl(url, undefined, refuse);
}

/**
 * Creates a local session (`local: true`): a new tab in the account's connected, API-enabled browser,
 * opened at `url`. BadRequest when no such browser is connected or API Enabled is off (the message says which).
 */
export async function openLocalSession<C>(
  deps: LocalOpenDeps<C>,
  accountId: string,
  request: OpenRequest,
): Promise<Session<C>> {
  const guardrails = request.guardrails ?? NO_GUARDRAILS;
  const refuse = guardrailCheck(guardrails);
  const url = await checkLocalUrl(request.url, refuse);
  const deviceId = deps.gateway.pickDevice(accountId);
  return deps.sessions.create(
    { accountId, local: true, mode: request.mode, agentId: request.agent_id, useProxy: false, guardrails },
    (sessionId) =>
      ExtensionDriver.open(url.href, {
        gateway: deps.gateway,
        accountId,
        deviceId,
        sessionId,
        navigationTimeoutMs: deps.config.TANDEM_NAVIGATION_TIMEOUT_MS,
        logger: deps.logger.child({ sessionId, deviceId }),
        checkUrl: (target) => checkLocalUrl(target, refuse),
        refuseHost: refuse,
      }),
  );
}
