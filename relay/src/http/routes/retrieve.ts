import { endpoints, type RetrieveRequest } from '@tandem/shared';
import { Router } from 'express';
import { NotImplementedYet } from '../../errors';
import type { Services } from '../../services';
import { assertRunnable } from '../../sessions/lifecycle';
import { accountId, body, locals } from '../context';
import { validate } from '../validation';

/** Retrieve: structured extraction. Validated now; the pipeline arrives with its own issue. */
export function retrieveRoutes(services: Services): Router {
  const router = Router();
  router.post(endpoints.retrieve.path, validate(endpoints.retrieve), (_req, res) => {
    const request = body<RetrieveRequest>(res);
    if (request.session_id) {
      locals(res).sessionId = request.session_id;
      services.sessions.get(accountId(res), request.session_id);
    }
    assertRunnable(request);
    throw new NotImplementedYet('Retrieve');
  });
  return router;
}
