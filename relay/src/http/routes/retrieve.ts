import type { RetrieveRequest } from '@tandem/shared';
import { Router } from 'express';
import type { Services } from '../../services';
import { accountId, body, keyIdOf, locals } from '../context';
import { validate } from '../validation';

/** Retrieve: structured extraction from a new session's page, or inside an existing session. */
export function retrieveRoutes(services: Services): Router {
  const router = Router();
  router.post(services.api.retrieve.path, validate(services.api.retrieve), async (_req, res) => {
    const response = await services.app.retrieve.retrieve(accountId(res), body<RetrieveRequest>(res), {
      keyId: keyIdOf(res),
      onSession: (id) => {
        locals(res).sessionId = id;
      },
    });
    res.json(response);
  });
  return router;
}
