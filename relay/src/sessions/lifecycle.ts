import type { BrowserParams, CreateSessionRequest } from '@tandem/shared';
import { DEFAULT_VIEWPORT, type Viewport } from '../browser/driver';
import { PlaywrightDriver } from '../browser/playwright-driver';
import { checkUrl } from '../browser/url-policy';
import { BadRequest } from '../errors';
import type { Services } from '../services';
import type { Session } from './session';

export function viewportOf(params: BrowserParams | undefined): Viewport {
  return {
    width: Math.round(params?.width ?? DEFAULT_VIEWPORT.width),
    height: Math.round(params?.height ?? DEFAULT_VIEWPORT.height),
  };
}

/** 400 for what this relay cannot run yet or at all, before any browser work starts. */
export function assertRunnable(request: { local?: boolean; agent_id?: string | undefined }): void {
  if (request.local) {
    throw new BadRequest(
      'local: true needs the Tandem browser extension, which this version of the relay cannot reach yet. Send local: false to run in the relay’s own browser.',
    );
  }
  if (request.agent_id !== undefined) {
    throw new BadRequest(
      `Unknown agent_id "${request.agent_id}". No agent profiles exist on this relay; omit agent_id.`,
    );
  }
}

type OpenRequest = Pick<CreateSessionRequest, 'url' | 'local' | 'agent_id' | 'mode' | 'use_proxy' | 'browser_params'>;

/** Creates a remote session and opens `url` in it; on any failure the session is gone again. */
export async function openSession(services: Services, accountId: string, request: OpenRequest): Promise<Session> {
  assertRunnable(request);
  const url = await checkUrl(request.url, { allowPrivateNetwork: services.config.TANDEM_ALLOW_PRIVATE_NETWORK });
  const session = await services.sessions.create(
    { accountId, local: false, mode: request.mode, agentId: request.agent_id, useProxy: request.use_proxy },
    (sessionId) =>
      PlaywrightDriver.open(services.browsers, {
        viewport: viewportOf(request.browser_params),
        proxy: request.use_proxy ? services.proxies.take(sessionId) : undefined,
        navigationTimeoutMs: services.config.TANDEM_NAVIGATION_TIMEOUT_MS,
        logger: services.logger.child({ sessionId }),
        checkUrl: (target) => checkUrl(target, { allowPrivateNetwork: services.config.TANDEM_ALLOW_PRIVATE_NETWORK }),
      }),
  );
  try {
    await services.sessions.run(session, () => session.driver.navigate(url.href));
  } catch (error) {
    await services.sessions.close(accountId, session.id).catch(() => undefined);
    throw error;
  }
  return session;
}

/** Takes a screenshot of the session's page, stores it, and returns its capability URL. */
export async function captureScreenshot(services: Services, session: Session): Promise<string> {
  const png = await session.driver.screenshot();
  const token = await services.screenshots.save(png);
  return `${services.publicUrl()}/v1/web/screenshots/${token}.png`;
}
