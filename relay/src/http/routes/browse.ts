import type { BrowseRequest } from '@tandem/shared';
import { Router } from 'express';
import type { Services } from '../../services';
import { clientSignal } from '../client-signal';
import { accountId, body, keyIdOf, locals } from '../context';
import { validate } from '../validation';

/** Browse: create or continue a session and step while the status is CONTINUE, up to max_steps. */
export function browseRoutes(services: Services): Router {
  const router = Router();
  router.post(services.api.browse.path, validate(services.api.browse), async (_req, res) => {
    const signal = clientSignal(res);
    const response = await services.app.browse.browse(accountId(res), body<BrowseRequest>(res), {
      signal,
      keyId: keyIdOf(res),
      onSession: (id) => {
        locals(res).sessionId = id;
      },
    });
    res.json(response);
  });
  return router;
}
