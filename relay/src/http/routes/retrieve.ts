import type { RetrieveRequest, RetrieveResponse } from '@tandem/shared';
import { Router } from 'express';
import { prepareSession } from '../../agent/session-agent';
import { runRetrieve } from '../../retrieve/index';
import type { Services } from '../../services';
import { openSession, optionalScreenshot } from '../../sessions/lifecycle';
import { accountId, body, locals } from '../context';
import { validate } from '../validation';

/** Retrieve: structured extraction from a new session's page, or inside an existing session. */
export function retrieveRoutes(services: Services): Router {
  const router = Router();
  router.post(services.api.retrieve.path, validate(services.api.retrieve), async (_req, res) => {
    const request = body<RetrieveRequest>(res);
    const account = accountId(res);
    if (request.session_id) locals(res).sessionId = request.session_id;
    const continuing = request.session_id !== undefined;
    const existing = continuing ? services.sessions.get(account, request.session_id as string) : undefined;
    const session =
      existing ??
      (await openSession(services, account, {
        url: request.url ?? services.config.TANDEM_START_URL,
        local: request.local,
        use_proxy: false,
      }));
    locals(res).sessionId = session.id;

    const work = services.sessions.run(session, async (signal): Promise<RetrieveResponse> => {
      if (continuing) await prepareSession(services, session, { url: request.url });
      const { usage, ...result } = await runRetrieve(services, session, request, signal);
      // Retrieve's model tokens count like a step's, without being a step.
      session.conversation.addUsage(usage);
      await services.store.usage.record(account, { steps: 0, ...usage });
      const shot = await optionalScreenshot(services, session, request.include_screenshot);
      return {
        ...result,
        message: `${result.message}${shot.note}`,
        url: session.driver.url(),
        session_id: session.id,
        ...(request.include_screenshot ? { screenshot: shot.screenshot } : {}),
      };
    });
    // A session this call created and could not report back would only wait for its idle expiry.
    const response = await work.catch(async (error: unknown) => {
      if (!continuing) await services.sessions.close(account, session.id).catch(() => undefined);
      throw error;
    });
    res.json(response);
  });
  return router;
}
