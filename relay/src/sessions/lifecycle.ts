import type { CreateSessionRequest } from '@tandem/shared';
import type { BrowserHost } from '../browser/browser-host';
import type { Viewport } from '../browser/driver';
import { ParkingDriver } from '../browser/parking-driver';
import { type PageState, PlaywrightDriver } from '../browser/playwright-driver';
import type { ProxyPool, ProxySettings } from '../browser/proxies';
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
import { Session, type SessionInfo } from './session';

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
  const url = await checkUrl(request.url, deps.guard, guardrailCheck(guardrails));
  const info: SessionInfo = {
    accountId,
    local: false,
    mode: request.mode,
    agentId: request.agent_id,
    useProxy: request.use_proxy,
    guardrails,
  };
  // The cap is checked before the gate, so a create beyond it is refused at once rather than queued.
  return deps.sessions.create(info, (sessionId) =>
    deps.browsers.opening.run(async () => {
      const remote = remoteBrowser(deps, sessionId, info);
      const driver = await remote.open({ viewport: viewportOf(request.browser_params) });
      try {
        await driver.navigate(url.href);
      } catch (error) {
        await driver.close();
        throw error;
      }
      return new ParkingDriver(driver, remote.reopen, remote.logger);
    }, openTurnMs(deps.config)),
  );
}

/** What the store keeps of a parked remote session to bring it back on any relay. */
export interface ParkedRemote<C> {
  id: string;
  info: SessionInfo;
  page: PageState;
  conversation: C;
  createdAt: number;
  lastUsedAt: number;
}

/**
 * A parked session from the store, back in this relay's directory, still parked: its next operation opens
 * its browser again where it was (the same proxy, guardrails and viewport; its cookies and storage).
 */
export function adoptSession<C>(deps: OpenDeps<C>, parked: ParkedRemote<C>): Session<C> {
  const remote = remoteBrowser(deps, parked.id, parked.info);
  const driver = new ParkingDriver(undefined, remote.reopen, remote.logger, parked.page);
  const session = new Session(
    parked.id,
    parked.info,
    driver,
    deps.sessions.busyWaitMs,
    parked.conversation,
    parked.createdAt,
  );
  session.lastUsedAt = parked.lastUsedAt;
  return deps.sessions.adopt(session);
}

/**
 * How a remote session's browser opens, first and when it comes back from parking. Every connection of
 * the session's browser goes through the egress proxy, which applies the address policy and the account's
 * guardrails and, with use_proxy, goes on through the session's own proxy (the same one when it comes back).
 */
function remoteBrowser<C>(deps: OpenDeps<C>, sessionId: string, info: SessionInfo) {
  const logger = deps.logger.child({ sessionId });
  const refuse = guardrailCheck(info.guardrails ?? NO_GUARDRAILS);
  let upstream: ProxySettings | undefined;
  if (info.useProxy) {
    const picked = deps.proxies.pick(sessionId, info.proxyIndex);
    info.proxyIndex = picked.index;
    upstream = picked.proxy;
  }
  const open = (state: { viewport: Viewport; storage?: PageState['storage'] }) =>
    PlaywrightDriver.open(deps.browsers, {
      viewport: state.viewport,
      navigationTimeoutMs: deps.config.TANDEM_NAVIGATION_TIMEOUT_MS,
      scriptTimeoutMs: deps.config.TANDEM_SCRIPT_TIMEOUT_MS,
      logger,
      checkUrl: (target) => checkUrl(target, deps.guard, refuse),
      egress: deps.egress.register({ upstream, logger, refuse }),
      storageState: state.storage,
    });
  return {
    logger,
    open,
    // A revive waits its turn at the gate like a create, so a burst of them cannot swamp Chromium.
    reopen: (state: PageState) => deps.browsers.opening.run(() => open(state), openTurnMs(deps.config)),
  };
}
