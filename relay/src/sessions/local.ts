import { type CreateSessionRequest, restrictedPageMessage } from '@tandem/shared';
import { resolveProfile } from '../agent/session-agent';
import { ExtensionDriver } from '../browser/extension-driver';
import { checkUrl } from '../browser/url-policy';
import { ExtensionCommandError } from '../gateway/errors';
import type { ExtensionGateway } from '../gateway/gateway';
import type { Services } from '../services';
import type { Session } from './session';

type OpenRequest = Pick<CreateSessionRequest, 'url' | 'agent_id' | 'mode' | 'use_proxy'>;

/**
 * http(s) only; loopback and private hosts are fine, since the browser is the user's own. Browser and
 * extension pages get the extension's `restricted_page` answer rather than the generic scheme message.
 */
async function checkLocalUrl(url: string): Promise<URL> {
  const restricted = restrictedPageMessage(url);
  if (restricted) throw new ExtensionCommandError({ code: 'restricted_page', message: restricted });
  return checkUrl(url);
}

/**
 * Creates a local session (`local: true`): a new tab in the account's connected, API-enabled browser,
 * opened at `url`. 400 when no such browser is connected or API Enabled is off (the message says which).
 */
export async function openLocalSession(
  services: Services & { gateway: ExtensionGateway },
  accountId: string,
  request: OpenRequest,
): Promise<Session> {
  await resolveProfile(services, accountId, request.agent_id);
  const url = await checkLocalUrl(request.url);
  const deviceId = services.gateway.pickDevice(accountId);
  return services.sessions.create(
    { accountId, local: true, mode: request.mode, agentId: request.agent_id, useProxy: false },
    (sessionId) =>
      ExtensionDriver.open(url.href, {
        gateway: services.gateway,
        accountId,
        deviceId,
        sessionId,
        navigationTimeoutMs: services.config.TANDEM_NAVIGATION_TIMEOUT_MS,
        logger: services.logger.child({ sessionId, deviceId }),
        checkUrl: checkLocalUrl,
      }),
  );
}
