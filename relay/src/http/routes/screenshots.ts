import { Router } from 'express';
import { NotFound } from '../../errors';
import type { Services } from '../../services';
import { CONTENT_TYPES } from '../../store/screenshots';

const GONE =
  'No such screenshot. Screenshot URLs are kept 24 hours; take a new one with GET /v1/web/screenshot/{session_id}.';

/**
 * Serves stored screenshots (answers' and the step history's). The 128-bit token in the URL is the
 * credential, so no API key is needed.
 * The file is read by its explicit path under the data directory, not with `res.sendFile`, which
 * refuses any path through a dot-named folder — and the default data directory is `.tandem`.
 */
export function screenshotRoutes(services: Services): Router {
  const router = Router();
  router.get('/v1/web/screenshots/:file', async (req, res) => {
    const { file } = req.params;
    // Answers' screenshots, then the step history's (kept as long as the history).
    const found = (await services.screenshots.read(file)) ?? (await services.stepScreenshots.read(file));
    if (!found) throw new NotFound(GONE);
    res.set({ 'Content-Type': CONTENT_TYPES[found.kind], 'Cache-Control': 'private, max-age=86400' }).send(found.image);
  });
  return router;
}
