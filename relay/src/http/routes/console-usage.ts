import type { UsageQuery } from '@tandem/shared';
import { Router } from 'express';
import type { Services } from '../../services';
import { accountId, query } from '../context';
import { route } from '../route';

/** Usage per day and per API key, with the monthly step quota. */
export function consoleUsageRoutes(services: Services): Router {
  const router = Router();
  route(router, services.api.usage, async (_req, res) => {
    res.json(await services.app.usage.report(accountId(res), query<UsageQuery>(res).days));
  });
  return router;
}
