import {
  type CloseSessionResponse,
  type CreateSessionRequest,
  type CreateSessionResponse,
  endpoints,
  type ListSessionsResponse,
  type ScreenshotResponse,
  type StepRequest,
} from '@tandem/shared';
import { Router } from 'express';
import { NotImplementedYet } from '../../errors';
import type { Services } from '../../services';
import { assertRunnable, captureScreenshot, openSession } from '../../sessions/lifecycle';
import { accountId, body, locals, params } from '../context';
import { validate } from '../validation';

type SessionParams = { session_id: string };

/** Create, step, close, list and screenshot: manual control of sessions. */
export function sessionRoutes(services: Services): Router {
  const router = Router();

  router.post(endpoints.createSession.path, validate(endpoints.createSession), async (_req, res) => {
    const request = body<CreateSessionRequest>(res);
    const session = await openSession(services, accountId(res), request);
    locals(res).sessionId = session.id;
    const response = await services.sessions.run(session, async (): Promise<CreateSessionResponse> => {
      const title = await session.driver.title();
      return {
        status: 'CONTINUE',
        message: `Session created; opened ${title ? `"${title}"` : session.driver.url()}.`,
        session_id: session.id,
        url: session.driver.url(),
        screenshot: request.include_screenshot ? await captureScreenshot(services, session) : '',
      };
    });
    res.json(response);
  });

  router.post(endpoints.stepSession.path, validate(endpoints.stepSession), (_req, res) => {
    const { session_id } = params<SessionParams>(res);
    locals(res).sessionId = session_id;
    const request = body<StepRequest>(res);
    services.sessions.get(accountId(res), session_id);
    assertRunnable({ agent_id: request.agent_id });
    throw new NotImplementedYet('Stepping a session (the agent)');
  });

  router.delete(endpoints.closeSession.path, validate(endpoints.closeSession), async (_req, res) => {
    const { session_id } = params<SessionParams>(res);
    locals(res).sessionId = session_id;
    await services.sessions.close(accountId(res), session_id);
    const response: CloseSessionResponse = { status: 'closed', session_id };
    res.json(response);
  });

  router.get(endpoints.screenshot.path, validate(endpoints.screenshot), async (_req, res) => {
    const { session_id } = params<SessionParams>(res);
    locals(res).sessionId = session_id;
    const session = services.sessions.get(accountId(res), session_id);
    const screenshot = await services.sessions.run(session, () => captureScreenshot(services, session));
    const response: ScreenshotResponse = { screenshot };
    res.json(response);
  });

  router.get(endpoints.listSessions.path, (_req, res) => {
    const response: ListSessionsResponse = { session_ids: services.sessions.list(accountId(res)) };
    res.json(response);
  });

  return router;
}
