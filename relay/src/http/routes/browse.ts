import { type BrowseRequest, endpoints } from '@tandem/shared';
import { Router } from 'express';
import { NotImplementedYet } from '../../errors';
import type { Services } from '../../services';
import { assertRunnable } from '../../sessions/lifecycle';
import { accountId, body, locals } from '../context';
import { validate } from '../validation';

/** Browse: the agent loop over many steps. Validated now; the agent arrives with its own issue. */
export function browseRoutes(services: Services): Router {
  const router = Router();
  router.post(endpoints.browse.path, validate(endpoints.browse), (_req, res) => {
    const request = body<BrowseRequest>(res);
    if (request.session_id) {
      locals(res).sessionId = request.session_id;
      services.sessions.get(accountId(res), request.session_id);
    }
    assertRunnable(request);
    throw new NotImplementedYet('Browse (the agent)');
  });
  return router;
}
