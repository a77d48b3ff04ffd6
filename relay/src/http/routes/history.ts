import type { SessionIdParams } from '@tandem/shared';
import { Router } from 'express';
import type { Services } from '../../services';
import { accountId, locals, params } from '../context';
import { validate } from '../validation';

/** Live and recent sessions, and a session's step timeline (the console's session pages read them). */
export function historyRoutes(services: Services): Router {
  const router = Router();
  router.get(services.api.consoleSessions.path, async (_req, res) => {
    res.json(await services.app.history.sessions(accountId(res)));
  });
  router.get(services.api.sessionSteps.path, validate(services.api.sessionSteps), async (_req, res) => {
    const { session_id } = params<SessionIdParams>(res);
    locals(res).sessionId = session_id;
    res.json(await services.app.history.steps(accountId(res), session_id));
  });
  return router;
}
