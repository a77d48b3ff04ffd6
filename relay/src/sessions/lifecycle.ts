import type { CreateSessionRequest } from '@tandem/shared';
import { resolveProfile } from '../agent/session-agent';
import { PlaywrightDriver } from '../browser/playwright-driver';
import { checkUrl } from '../browser/url-policy';
import { viewportOf } from '../browser/viewport';
import type { Services } from '../services';
import { ScreenshotNotStored } from '../store/screenshots';
import { openLocalSession } from './local';
import type { Session } from './session';

type OpenRequest = Pick<CreateSessionRequest, 'url' | 'local' | 'agent_id' | 'mode' | 'use_proxy' | 'browser_params'>;

/** The longest a create holds its turn at the gate: its page load and a margin for the context. */
const openTurnMs = (services: Services) => services.config.TANDEM_NAVIGATION_TIMEOUT_MS + 15_000;

/** Creates a remote session and opens `url` in it; on any failure the session is gone again. */
export async function openSession(services: Services, accountId: string, request: OpenRequest): Promise<Session> {
  if (request.local) return openLocalSession(services, accountId, request); // [local mode, issue 6]
  await resolveProfile(services, accountId, request.agent_id);
  const url = await checkUrl(request.url, services.guard);
  // The cap is checked before the gate, so a create beyond it is refused at once rather than queued.
  return services.sessions.create(
    { accountId, local: false, mode: request.mode, agentId: request.agent_id, useProxy: request.use_proxy },
    (sessionId) =>
      services.browsers.opening.run(async () => {
        const logger = services.logger.child({ sessionId });
        // Every connection of the session's browser goes through the egress proxy, which applies the
        // address policy and, with use_proxy, goes on through the session's own proxy.
        const upstream = request.use_proxy ? services.proxies.take(sessionId) : undefined;
        const driver = await PlaywrightDriver.open(services.browsers, {
          viewport: viewportOf(request.browser_params),
          navigationTimeoutMs: services.config.TANDEM_NAVIGATION_TIMEOUT_MS,
          scriptTimeoutMs: services.config.TANDEM_SCRIPT_TIMEOUT_MS,
          logger,
          checkUrl: (target) => checkUrl(target, services.guard),
          egress: services.egress.register({ upstream, logger }),
        });
        try {
          await driver.navigate(url.href);
        } catch (error) {
          await driver.close();
          throw error;
        }
        return driver;
      }, openTurnMs(services)),
  );
}

/** Takes a screenshot of the session's page, stores it, and returns its capability URL. */
export async function captureScreenshot(services: Services, session: Session): Promise<string> {
  const png = await session.driver.screenshot();
  let token: string;
  try {
    token = await services.screenshots.save(png);
  } catch (error) {
    services.logger.error({ err: error, sessionId: session.id }, 'screenshot not stored');
    throw error;
  }
  return `${services.publicUrl()}/v1/web/screenshots/${token}.png`;
}

/** A screenshot URL for a response that asked for one, or "" with a note for its message when none could be stored. */
export interface OptionalScreenshot {
  screenshot: string;
  /** "" when there is nothing to say; else a sentence (with a leading space) for the response's message. */
  note: string;
}

export const NO_SCREENSHOT: OptionalScreenshot = { screenshot: '', note: '' };

/**
 * The screenshot a step, browse, create or retrieve asked for. A disk that refuses it (full, read-only)
 * must not cost the client the work it asked for: the answer goes out without it and says why.
 */
export async function optionalScreenshot(
  services: Services,
  session: Session,
  wanted: boolean,
): Promise<OptionalScreenshot> {
  if (!wanted) return NO_SCREENSHOT;
  try {
    return { screenshot: await captureScreenshot(services, session), note: '' };
  } catch (error) {
    if (!(error instanceof ScreenshotNotStored)) throw error;
    return {
      screenshot: '',
      note: ` No screenshot: it was taken but could not be stored: ${error.reason}. Free disk space in the relay's data directory (TANDEM_DATA_DIR).`,
    };
  }
}
