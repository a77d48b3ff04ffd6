import type { CreateSessionRequest } from '@tandem/shared';
import type { BrowserHost } from '../browser/browser-host';
import { ParkingDriver } from '../browser/parking-driver';
import { type PageState, PlaywrightDriver } from '../browser/playwright-driver';
import type { ProxyPool } from '../browser/proxies';
import { checkUrl } from '../browser/url-policy';
import { viewportOf } from '../browser/viewport';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { EgressProxy } from '../network/egress-proxy';
import type { NetworkGuard } from '../network/network-guard';
import { type Guardrails, NO_GUARDRAILS } from '../store/guardrails';
import { guardrailCheck } from './guardrails';
import { type LocalOpenDeps, openLocalSession } from './local';
import type { SessionManager } from './manager';
import type { Session } from './session';

type OpenRequest = Pick<
  CreateSessionRequest,
  'url' | 'local' | 'agent_id' | 'mode' | 'use_proxy' | 'browser_params'
> & {
  /** The account's guardrails (none: no limits). */
  guardrails?: Guardrails | undefined;
};

/** What opening a session needs: the session directory, and the browsers either kind opens in. */
export interface OpenDeps<C> extends LocalOpenDeps<C> {
  sessions: SessionManager<C>;
  browsers: BrowserHost;
  proxies: ProxyPool;
  /** The address policy of remote sessions. */
  guard: NetworkGuard;
  egress: EgressProxy;
  logger: Logger;
  config: Pick<Config, 'TANDEM_NAVIGATION_TIMEOUT_MS' | 'TANDEM_SCRIPT_TIMEOUT_MS'>;
}

/** The longest a create holds its turn at the gate: its page load and a margin for the context. */
const openTurnMs = (config: OpenDeps<unknown>['config']) => config.TANDEM_NAVIGATION_TIMEOUT_MS + 15_000;

/**
 * Creates a session and opens `url` in it: a remote one in the shared Chromium, or with `local` a tab in
 * the account's own browser. On any failure the session is gone again.
 */
export async function openSession<C>(deps: OpenDeps<C>, accountId: string, request: OpenRequest): Promise<Session<C>> {
  if (request.local) return openLocalSession(deps, accountId, request); // [local mode, issue 6]
  const guardrails = request.guardrails ?? NO_GUARDRAILS;
  const refuse = guardrailCheck(guardrails);
  const url = await checkUrl(request.url, deps.guard, refuse);
  // The cap is checked before the gate, so a create beyond it is refused at once rather than queued.
  return deps.sessions.create(
    {
      accountId,
      local: false,
      mode: request.mode,
      agentId: request.agent_id,
      useProxy: request.use_proxy,
      guardrails,
    },
    (sessionId) =>
      deps.browsers.opening.run(async () => {
        const logger = deps.logger.child({ sessionId });
        // Every connection of the session's browser goes through the egress proxy, which applies the
        // address policy and, with use_proxy, goes on through the session's own proxy (the same one
        // again when a parked session comes back).
        const upstream = request.use_proxy ? deps.proxies.take(sessionId) : undefined;
        const browser = (state?: PageState) =>
          PlaywrightDriver.open(deps.browsers, {
            viewport: state?.viewport ?? viewportOf(request.browser_params),
            navigationTimeoutMs: deps.config.TANDEM_NAVIGATION_TIMEOUT_MS,
            scriptTimeoutMs: deps.config.TANDEM_SCRIPT_TIMEOUT_MS,
            logger,
            checkUrl: (target) => checkUrl(target, deps.guard, refuse),
            // The guardrails hold for every connection, whatever the page or the model does.
            egress: deps.egress.register({ upstream, logger, refuse }),
            storageState: state?.storage,
          });
        const driver = await browser();
        try {
          await driver.navigate(url.href);
        } catch (error) {
          await driver.close();
          throw error;
        }
        // A revive waits its turn at the gate like a create, so a burst of them cannot swamp Chromium.
        return new ParkingDriver(
          driver,
          (state) => deps.browsers.opening.run(() => browser(state), openTurnMs(deps.config)),
          logger,
        );
      }, openTurnMs(deps.config)),
  );
}
