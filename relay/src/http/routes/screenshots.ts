import { Router } from 'express';
import { NotFound } from '../../errors';
import type { Services } from '../../services';

const GONE =
  'No such screenshot. Screenshot URLs are kept 24 hours; take a new one with GET /v1/web/screenshot/{session_id}.';

/** Serves stored screenshots. The 128-bit token in the URL is the credential, so no API key is needed. */
export function screenshotRoutes(services: Services): Router {
  const router = Router();
  router.get('/v1/web/screenshots/:file', (req, res, next) => {
    const token = /^(\w+)\.png$/.exec(req.params.file)?.[1];
    const path = token && services.screenshots.pathOf(token);
    if (!path) throw new NotFound(GONE);
    res.sendFile(
      path,
      { headers: { 'Content-Type': 'image/png', 'Cache-Control': 'private, max-age=86400' } },
      (error) => {
        if (error) next((error as NodeJS.ErrnoException).code === 'ENOENT' ? new NotFound(GONE) : error);
      },
    );
  });
  return router;
}
